-- Learning a course (ADR 0048, "Learning a course"): when a lesson counts as finished,
-- and the creator's completion funnel.
--
-- * watch_progress.first_finished_at: when the learner first watched the video to the
--   end (past 95 %, as save_watch_position() decides). It stays when they watch the
--   video again from the start (their position, and `finished`, move back), so a
--   finished lesson of a course stays finished. Removing the video from History (the
--   row) forgets it too. Private like the rest of the row.
-- * A lesson is finished for a learner when they watched it to the end at least once
--   AND answered every required checkpoint of it right at least once (ADR 0047);
--   optional checkpoints never hold a lesson back. The app reads the learner's own rows
--   as the learner (app/server/course-progress.server.ts); course_funnel() below applies
--   the same rule to every enrolled learner.
-- * public.course_funnel(course_id): for the course's creator or an admin only (42501
--   for anyone else), counts only: how many learners are enrolled, and per lesson how
--   many of them reached it (have a saved position in it) and finished it. The
--   creator's own watching does not count; no learner is named.

alter table public.watch_progress add column first_finished_at timestamptz;

comment on column public.watch_progress.first_finished_at is
  'When the learner first watched the video past 95 %; kept when they watch it again (a course''s finished lesson stays finished).';

update public.watch_progress set first_finished_at = updated_at where finished and first_finished_at is null;

-- Runs only when a row becomes finished for the first time (the WHEN clause), so the
-- player's frequent position reports pay nothing for it.
create function public.stamp_first_finished() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  new.first_finished_at := new.updated_at;
  return new;
end
$$;

revoke execute on function public.stamp_first_finished() from public, anon, authenticated;

create trigger watch_progress_first_finished before insert or update on public.watch_progress
  for each row when (new.finished and new.first_finished_at is null)
  execute function public.stamp_first_finished();

-- The funnel -----------------------------------------------------------------------------

create function public.course_funnel(course_id uuid)
  returns table (
    enrolled integer, lesson_position integer, video_id uuid, title text, reached integer, finished integer
  )
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  owner uuid;
begin
  select c.creator_id into owner from public.courses c
   where c.id = course_funnel.course_id and (c.creator_id = (select auth.uid()) or public.is_admin());
  if not found then
    raise exception 'only the course''s creator or an admin reads its funnel' using errcode = '42501';
  end if;
  return query
  with learners as (
    select e.user_id from public.course_enrollments e
     where e.course_id = course_funnel.course_id and e.user_id <> owner
  )
  select (select count(*)::int from learners),
         l.position, l.video_id, v.title,
         (select count(*)::int from learners s
            join public.watch_progress w on w.user_id = s.user_id and w.video_id = l.video_id),
         (select count(*)::int from learners s
            join public.watch_progress w on w.user_id = s.user_id and w.video_id = l.video_id
           where w.first_finished_at is not null
             and not exists (
               select 1 from public.checkpoints q
                where q.video_id = l.video_id and q.required
                  and not exists (
                    select 1 from public.checkpoint_attempts a
                     where a.checkpoint_id = q.id and a.user_id = s.user_id and a.correct)))
    from (select 1) as one
    left join public.course_lessons l on l.course_id = course_funnel.course_id
    left join public.videos v on v.id = l.video_id
   order by l.position;
end
$$;

revoke execute on function public.course_funnel(uuid) from public, anon;
grant execute on function public.course_funnel(uuid) to authenticated, service_role;

comment on function public.course_funnel(uuid) is
  'Enrolled learners and, per lesson, how many reached and finished it: counts only, for the course''s creator or an admin. A course without lessons answers one row with the count and no lesson.';
