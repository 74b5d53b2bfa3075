-- Notifications: what happened to a user, written by the database itself.
--
-- Every event is written by a trigger on the row that caused it, in the same
-- transaction: a notification is never lost when a process dies after the
-- commit, and never written twice (docs/decisions/0032-notifications.md).
-- A notification holds references, never copies of text: the page renders a
-- comment's body, a video's title, a failure's reason at read time under the
-- recipient's own RLS, and rows that point at something that is gone go with it
-- (foreign keys on delete cascade). Nobody is told about their own actions.
--
-- Types:
--   video_published      a creator you follow published a video or spark (once it is ready and public)
--   video_commented      someone commented on your video
--   video_liked          people liked your video: one row per video and hour, counted at read time
--   video_quoted         someone quoted your video (a text quote at once, a video response once it is ready)
--   followed             someone followed you (once per follower)
--   application_reviewed your creator application was approved or rejected (the admin's note read at read time)
--   category_reviewed    your request for a category was approved or rejected
--   report_handled       a report you filed was reviewed, dismissed or its content removed
--   video_processed      your upload finished processing
--   video_failed         your upload could not be processed (the reason read at read time)

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  recipient_id uuid not null references public.profiles (id) on delete cascade,
  type text not null check (type in (
    'video_published', 'video_commented', 'video_liked', 'video_quoted', 'followed',
    'application_reviewed', 'category_reviewed', 'report_handled', 'video_processed', 'video_failed'
  )),
  -- Who did it; null for admins' decisions (which admin is not the recipient's business),
  -- the media worker and grouped likes.
  actor_id uuid references public.profiles (id) on delete cascade,
  video_id uuid references public.videos (id) on delete cascade,
  comment_id uuid references public.comments (id) on delete cascade,
  quote_id uuid references public.quotes (id) on delete cascade,
  application_id uuid references public.creator_applications (id) on delete cascade,
  report_id uuid references public.reports (id) on delete cascade,
  category_id text references public.categories (id),
  -- approved / rejected (reviews), reviewed / dismissed / removed (reports).
  outcome text check (outcome in ('approved', 'rejected', 'reviewed', 'dismissed', 'removed')),
  -- Events that happen at most once (per follower, per video and hour of likes, ...)
  -- share a key: a second one is dropped.
  group_key text,
  read_at timestamptz,
  created_at timestamptz not null default now()
);

comment on table public.notifications is
  'What happened to a user (see the types above). Written by triggers only; the recipient reads them and marks them read.';
comment on column public.notifications.group_key is
  'Set for events that happen at most once per recipient and key (a follower, a video''s likes in one hour).';

-- The bell: one indexed count of a user's unread rows.
create index notifications_unread_idx on public.notifications (recipient_id) where read_at is null;
-- The page: newest first, keyset on (created_at, id).
create index notifications_recipient_idx on public.notifications (recipient_id, created_at desc, id desc);
create unique index notifications_group_key_idx on public.notifications (recipient_id, group_key)
  where group_key is not null;
create index notifications_actor_id_idx on public.notifications (actor_id);
create index notifications_video_id_idx on public.notifications (video_id);
create index notifications_comment_id_idx on public.notifications (comment_id);
create index notifications_quote_id_idx on public.notifications (quote_id);
create index notifications_application_id_idx on public.notifications (application_id);
create index notifications_report_id_idx on public.notifications (report_id);
create index notifications_category_id_idx on public.notifications (category_id);

alter table public.notifications enable row level security;

create policy "recipients read their notifications"
  on public.notifications for select to authenticated
  using (recipient_id = (select auth.uid()));

create policy "recipients mark their notifications read"
  on public.notifications for update to authenticated
  using (recipient_id = (select auth.uid()))
  with check (recipient_id = (select auth.uid()));

-- Nobody writes notifications through the API: no insert or delete policy and no
-- grant; of an update, only read_at.
revoke all on public.notifications from anon;
revoke insert, update, delete, truncate on public.notifications from authenticated;
grant update (read_at) on public.notifications to authenticated;

-- The one writer, for the triggers below. Drops the event when the recipient is
-- the one acting (the actor, or the signed-in caller: an admin handling their own
-- report) and when its group_key was used already.
create function public.notify(
  recipient_id uuid,
  type text,
  actor_id uuid default null,
  video_id uuid default null,
  comment_id uuid default null,
  quote_id uuid default null,
  application_id uuid default null,
  report_id uuid default null,
  category_id text default null,
  outcome text default null,
  group_key text default null
) returns void
  language plpgsql security definer
  set search_path = ''
as $$
#variable_conflict use_column
begin
  if notify.recipient_id is null
     or notify.recipient_id = notify.actor_id
     or notify.recipient_id = auth.uid() then
    return;
  end if;
  insert into public.notifications (
    recipient_id, type, actor_id, video_id, comment_id, quote_id, application_id, report_id,
    category_id, outcome, group_key
  ) values (
    notify.recipient_id, notify.type, notify.actor_id, notify.video_id, notify.comment_id, notify.quote_id,
    notify.application_id, notify.report_id, notify.category_id, notify.outcome, notify.group_key
  )
  on conflict (recipient_id, group_key) where group_key is not null do nothing;
end
$$;

revoke execute on function public.notify(uuid, text, uuid, uuid, uuid, uuid, uuid, uuid, text, text, text)
  from public, anon, authenticated;

-- Videos: ready (followers, and the creator when it was processed) or failed. A
-- YouTube link is ready when it is inserted: its followers are told then. A private
-- video tells no follower.
create function public.notify_video_status() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if new.status = 'ready' then
    if new.is_public then
      insert into public.notifications (recipient_id, type, actor_id, video_id, group_key)
      select f.follower_id, 'video_published', new.creator_id, new.id, 'published:' || new.id
        from public.follows f
       where f.creator_id = new.creator_id and f.follower_id <> new.creator_id
      on conflict (recipient_id, group_key) where group_key is not null do nothing;
    end if;
    if tg_op = 'UPDATE' then
      perform public.notify(new.creator_id, 'video_processed', video_id => new.id, group_key => 'processed:' || new.id);
    end if;
  elsif new.status = 'failed' then
    perform public.notify(new.creator_id, 'video_failed', video_id => new.id, group_key => 'failed:' || new.id);
  end if;
  return null;
end
$$;

revoke execute on function public.notify_video_status() from public, anon, authenticated;

create trigger videos_notify_ready after insert on public.videos
  for each row when (new.status = 'ready')
  execute function public.notify_video_status();

create trigger videos_notify_status after update of status on public.videos
  for each row when (new.status is distinct from old.status and new.status in ('ready', 'failed'))
  execute function public.notify_video_status();

-- A video made private: nobody but its creator keeps notifications about it.
create function public.forget_private_video_notifications() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  delete from public.notifications n where n.video_id = new.id and n.recipient_id <> new.creator_id;
  return null;
end
$$;

revoke execute on function public.forget_private_video_notifications() from public, anon, authenticated;

create trigger videos_forget_private_notifications after update of is_public on public.videos
  for each row when (old.is_public and not new.is_public)
  execute function public.forget_private_video_notifications();

-- Comments.
create function public.notify_comment() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform public.notify(
    (select v.creator_id from public.videos v where v.id = new.video_id), 'video_commented',
    actor_id => new.user_id, video_id => new.video_id, comment_id => new.id
  );
  return null;
end
$$;

revoke execute on function public.notify_comment() from public, anon, authenticated;

create trigger comments_notify after insert on public.comments
  for each row execute function public.notify_comment();

-- Likes: one notification per video and hour (the first like of the hour writes
-- it); how many people and who is counted from video_likes when it is read, so an
-- unliked or deleted user's like stops counting. When the hour's last like is gone,
-- the notification goes too.
create function public.like_group_key(video_id uuid, liked_at timestamptz) returns text
  language sql immutable
  set search_path = ''
as $$
  select 'liked:' || like_group_key.video_id || ':'
      || pg_catalog.to_char(pg_catalog.date_trunc('hour', like_group_key.liked_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24')
$$;

comment on function public.like_group_key(uuid, timestamptz) is
  'The group_key of a video''s likes notification for the UTC hour of liked_at.';

create function public.notify_like() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  owner uuid := (select v.creator_id from public.videos v where v.id = new.video_id);
begin
  if owner = new.user_id then
    return null;
  end if;
  perform public.notify(
    owner, 'video_liked', video_id => new.video_id, group_key => public.like_group_key(new.video_id, new.created_at)
  );
  return null;
end
$$;

revoke execute on function public.notify_like() from public, anon, authenticated;

create trigger video_likes_notify after insert on public.video_likes
  for each row execute function public.notify_like();

create function public.forget_unliked_notification() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  hour_start timestamptz := pg_catalog.date_trunc('hour', old.created_at at time zone 'UTC') at time zone 'UTC';
  owner uuid := (select v.creator_id from public.videos v where v.id = old.video_id);
begin
  if not exists (
    select 1 from public.video_likes l
     where l.video_id = old.video_id and l.user_id <> owner
       and l.created_at >= hour_start and l.created_at < hour_start + interval '1 hour'
  ) then
    delete from public.notifications n
     where n.recipient_id = owner and n.group_key = public.like_group_key(old.video_id, old.created_at);
  end if;
  return null;
end
$$;

revoke execute on function public.forget_unliked_notification() from public, anon, authenticated;

create trigger video_likes_forget_notification after delete on public.video_likes
  for each row execute function public.forget_unliked_notification();

-- Quotes: a text quote when it is written, a video response once it is ready.
create function public.notify_quote() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if new.type = 'text' or new.response_status = 'ready' then
    perform public.notify(
      (select v.creator_id from public.videos v where v.id = new.video_id), 'video_quoted',
      actor_id => new.user_id, video_id => new.video_id, quote_id => new.id, group_key => 'quoted:' || new.id
    );
  end if;
  return null;
end
$$;

revoke execute on function public.notify_quote() from public, anon, authenticated;

create trigger quotes_notify after insert on public.quotes
  for each row execute function public.notify_quote();

create trigger quotes_notify_ready after update of response_status on public.quotes
  for each row when (new.response_status = 'ready' and old.response_status is distinct from 'ready')
  execute function public.notify_quote();

-- Follows: once per follower (unfollowing and following again tells nobody twice).
create function public.notify_follow() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform public.notify(new.creator_id, 'followed', actor_id => new.follower_id, group_key => 'followed:' || new.follower_id);
  return null;
end
$$;

revoke execute on function public.notify_follow() from public, anon, authenticated;

create trigger follows_notify after insert on public.follows
  for each row execute function public.notify_follow();

-- Creator applications and category requests, reviewed. The categories an
-- application's approval approves along with it are part of that one event.
create function public.notify_application_review() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform public.notify(
    new.creator_id, 'application_reviewed', application_id => new.id, outcome => new.status,
    group_key => 'application:' || new.id
  );
  return null;
end
$$;

revoke execute on function public.notify_application_review() from public, anon, authenticated;

create trigger creator_applications_notify_review after update of status on public.creator_applications
  for each row
  when (old.status = 'pending' and new.status in ('approved', 'rejected'))
  execute function public.notify_application_review();

create function public.notify_category_review() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if coalesce(current_setting('lumen.reviewing_application_of', true), '') = new.creator_id::text then
    return null;
  end if;
  perform public.notify(new.creator_id, 'category_reviewed', category_id => new.category_id, outcome => new.status);
  return null;
end
$$;

revoke execute on function public.notify_category_review() from public, anon, authenticated;

create trigger creator_categories_notify_review after update of status on public.creator_categories
  for each row
  when (old.status = 'pending' and new.status in ('approved', 'rejected'))
  execute function public.notify_category_review();

-- Reports: each reporter whose report was decided, including the other open
-- reports a removal closes along with it.
create function public.notify_report_decision() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform public.notify(
    new.reporter_id, 'report_handled', report_id => new.id, outcome => new.status, group_key => 'report:' || new.id
  );
  return null;
end
$$;

revoke execute on function public.notify_report_decision() from public, anon, authenticated;

create trigger reports_notify_decision after update of status on public.reports
  for each row
  when (old.status = 'pending' and new.status in ('reviewed', 'dismissed', 'removed'))
  execute function public.notify_report_decision();

-- A banned or deleted account: what it did disappears from everyone's
-- notifications at once (a deleted profile's rows go by cascade later too).
create function public.forget_removed_user_notifications() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  delete from public.notifications n where n.actor_id = new.id;
  return null;
end
$$;

revoke execute on function public.forget_removed_user_notifications() from public, anon, authenticated;

create trigger on_auth_user_removed_forget_notifications after update of deleted_at, banned_until on auth.users
  for each row
  when ((new.deleted_at is not null and old.deleted_at is null)
     or (new.banned_until is not null and new.banned_until > now()
         and (old.banned_until is null or old.banned_until <= now())))
  execute function public.forget_removed_user_notifications();
