-- Notifications of new checkpoint answers (docs/decisions/0032-notifications.md,
-- docs/decisions/0047-checkpoints.md): a video's creator hears that learners answered its
-- checkpoints, at most once per video and UTC day.
--
--   checkpoint_answers   learners answered the checkpoints of your video: one row per video
--                        and UTC day, counted at read time
--
-- Like grouped likes: the day's first answer (public.checkpoint_attempts insert) writes the
-- row in its own transaction and the unique group key drops the rest; how many learners is
-- counted from checkpoint_attempts when the notification is read, so a deleted learner
-- (their answers go with their profile) stops counting. The creator's own answers notify
-- nobody and never count. The count never names a learner: the creator sees aggregates
-- of the answers only (ADR 0047).

alter table public.notifications drop constraint notifications_type_check;
alter table public.notifications add constraint notifications_type_check check (type in (
  'video_published', 'video_commented', 'video_liked', 'video_quoted', 'followed',
  'application_reviewed', 'category_reviewed', 'report_handled', 'video_processed', 'video_failed',
  'checkpoint_answers'
));

-- In the app only until the creator chooses email or a daily digest.
alter table public.notification_preferences drop constraint notification_preferences_type_check;
alter table public.notification_preferences add constraint notification_preferences_type_check check (type in (
  'video_published', 'video_commented', 'video_liked', 'video_quoted', 'followed',
  'application_reviewed', 'category_reviewed', 'report_handled', 'video_processed', 'video_failed',
  'checkpoint_answers'
));

create function public.checkpoint_answers_group_key(video_id uuid, answered_at timestamptz) returns text
  language sql immutable
  set search_path = ''
as $$
  select 'checkpoint_answers:' || checkpoint_answers_group_key.video_id || ':'
      || pg_catalog.to_char(checkpoint_answers_group_key.answered_at at time zone 'UTC', 'YYYY-MM-DD')
$$;

comment on function public.checkpoint_answers_group_key(uuid, timestamptz) is
  'The group_key of a video''s checkpoint answers notification for the UTC day of answered_at.';

create function public.notify_checkpoint_answer() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  video uuid := (select c.video_id from public.checkpoints c where c.id = new.checkpoint_id);
  owner uuid := (select v.creator_id from public.videos v where v.id = video);
begin
  if owner is null or owner = new.user_id then
    return null;
  end if;
  perform public.notify(
    owner, 'checkpoint_answers', video_id => video,
    group_key => public.checkpoint_answers_group_key(video, new.created_at)
  );
  return null;
end
$$;

revoke execute on function public.notify_checkpoint_answer() from public, anon, authenticated;

create trigger checkpoint_attempts_notify after insert on public.checkpoint_attempts
  for each row execute function public.notify_checkpoint_answer();

-- How many learners (not the creator) answered the checkpoints of a checkpoint_answers
-- notification's video on its UTC day: for its recipient (the page, under their RLS) and the
-- service role (the emails). Null for anyone else and for other notifications.
create function public.checkpoint_answer_count(notification_id uuid) returns integer
  language sql stable security definer
  set search_path = ''
as $$
  select (
    select count(distinct a.user_id)::int
      from public.checkpoint_attempts a
      join public.checkpoints c on c.id = a.checkpoint_id
     where c.video_id = n.video_id
       and a.user_id <> v.creator_id
       and a.created_at >= day.start and a.created_at < day.start + interval '1 day'
  )
    from public.notifications n
    join public.videos v on v.id = n.video_id
    cross join lateral (
      select pg_catalog.date_trunc('day', n.created_at at time zone 'UTC') at time zone 'UTC' as start
    ) day
   where n.id = checkpoint_answer_count.notification_id
     and n.type = 'checkpoint_answers'
     and (n.recipient_id = (select auth.uid()) or (select auth.role()) = 'service_role')
$$;

revoke execute on function public.checkpoint_answer_count(uuid) from public, anon;
grant execute on function public.checkpoint_answer_count(uuid) to authenticated, service_role;

comment on function public.checkpoint_answer_count(uuid) is
  'The learners who answered the checkpoints of a checkpoint_answers notification''s video on its UTC day (its recipient or the service role).';
