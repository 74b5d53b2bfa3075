-- Sparks lead to lessons (docs/decisions/0050-spark-lessons.md).
--
-- A spark may name ONE long-form video of its own creator as its lesson, optionally at a
-- moment (whole seconds from the lesson's start): the clip then offers "Watch the full
-- lesson", and the lesson's page lists its sparks.
--
-- * videos.lesson_id: the lesson (a videos row); deleting the lesson unlinks the spark.
-- * videos.lesson_at_seconds: where the lesson opens (≥ 0; null = its start, or no link).
-- * Only sparks link, only to a long-form video of the same creator, and the moment lies
--   within the lesson when its length is known (a trigger, like check_video_category; the
--   same rules as app/lib/schemas/spark-lesson.ts). A video that sparks link to stays a
--   long-form video.
-- * Who changes the link: whoever may update the spark (its creator and admins, the videos
--   update policy).
-- * Who sees the link: whoever can see both the spark and the lesson. A private lesson's
--   link is hidden from everyone else — not even its id is readable: the two columns are
--   not granted to API roles (videos has per-column SELECT grants since
--   20261124000500_hide_status_message.sql); they are read through public.spark_lessons()
--   and public.lesson_sparks(), which apply the videos select policies' own rule.

alter table public.videos
  add column lesson_id uuid references public.videos (id) on delete set null,
  add column lesson_at_seconds integer constraint videos_lesson_at_not_negative check (lesson_at_seconds >= 0),
  add constraint videos_lesson_only_sparks check (lesson_id is null or type = 'spark'),
  add constraint videos_lesson_at_needs_lesson check (lesson_id is not null or lesson_at_seconds is null);

comment on column public.videos.lesson_id is
  'A spark''s lesson: a long-form video of the same creator ("Watch the full lesson", ADR 0050). Read through public.spark_lessons().';
comment on column public.videos.lesson_at_seconds is
  'Where the spark''s lesson opens, in whole seconds from its start; null for its start (or no lesson).';

-- The lesson's sparks (the lesson page's list, GET /api/videos/{id}/sparks); also covers the foreign key.
create index videos_lesson_id_idx on public.videos (lesson_id, lesson_at_seconds) where lesson_id is not null;

-- The rules ------------------------------------------------------------------------------

-- SECURITY DEFINER: the lesson is read whatever the caller may see, so nobody (an admin
-- neither) can link a spark to another creator's video, private or not. The unlink on the
-- lesson's deletion (on delete set null) passes here too and clears the moment.
create function public.check_spark_lesson() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  lesson record;
begin
  -- The lesson side: a video that sparks link to stays a long-form video.
  if tg_op = 'UPDATE' and new.type is distinct from old.type and new.type <> 'video'
     and exists (select 1 from public.videos s where s.lesson_id = new.id) then
    raise exception 'sparks link to this video as their lesson: it stays a long-form video'
      using errcode = 'check_violation', constraint = 'videos_lesson_stays_video';
  end if;
  if new.lesson_id is null then
    -- Unlinking (also by the lesson's deletion) clears the moment; a moment without a
    -- lesson otherwise is the CHECK's to refuse.
    if tg_op = 'UPDATE' and old.lesson_id is not null then
      new.lesson_at_seconds := null;
    end if;
    return new;
  end if;
  if new.type is distinct from 'spark' then
    raise exception 'only a spark links to a lesson'
      using errcode = 'check_violation', constraint = 'videos_lesson_only_sparks';
  end if;
  select v.creator_id, v.type, v.duration_seconds into lesson
    from public.videos v
   where v.id = new.lesson_id;
  if not found or lesson.type <> 'video' or lesson.creator_id is distinct from new.creator_id then
    raise exception 'a spark''s lesson is a long-form video of its own creator'
      using errcode = 'check_violation', constraint = 'videos_lesson_own_video';
  end if;
  if new.lesson_at_seconds is not null and lesson.duration_seconds is not null
     and new.lesson_at_seconds >= lesson.duration_seconds then
    raise exception 'the moment must be within the lesson'
      using errcode = 'check_violation', constraint = 'videos_lesson_at_within';
  end if;
  return new;
end
$$;

revoke execute on function public.check_spark_lesson() from public, anon, authenticated;

create trigger videos_check_spark_lesson before insert or update of lesson_id, lesson_at_seconds, type on public.videos
  for each row execute function public.check_spark_lesson();

-- Reading --------------------------------------------------------------------------------

-- Whether the caller can see a video row: the videos select policies' rule (anon: public
-- ones; signed in: public ones, their own, all for admins). auth.uid() is null for anon.
create function public.video_visible_to_caller(is_public boolean, creator_id uuid) returns boolean
  language sql stable
  set search_path = ''
as $$
  select video_visible_to_caller.is_public
      or video_visible_to_caller.creator_id = (select auth.uid())
      or coalesce((select public.is_admin()), false)
$$;

comment on function public.video_visible_to_caller(boolean, uuid) is
  'The rule of the videos select policies for one row''s is_public and creator_id, as the caller.';

-- The lessons of some sparks, for the caller: one row per spark they can see whose lesson
-- they can see too (a link to a lesson hidden from them is no row at all).
create function public.spark_lessons(spark_ids uuid[])
returns table (spark_id uuid, lesson_id uuid, lesson_at_seconds integer)
  language sql stable security definer
  set search_path = ''
as $$
  select s.id, l.id, s.lesson_at_seconds
    from public.videos s
    join public.videos l on l.id = s.lesson_id
   where s.id = any (spark_ids)
     and public.video_visible_to_caller(s.is_public, s.creator_id)
     and public.video_visible_to_caller(l.is_public, l.creator_id)
$$;

revoke execute on function public.spark_lessons(uuid[]) from public;
grant execute on function public.spark_lessons(uuid[]) to anon, authenticated, service_role;

comment on function public.spark_lessons(uuid[]) is
  'The lesson (and moment) of each given spark the caller can see, when the caller can see that lesson too (ADR 0050).';

-- A lesson's public, ready sparks, when the caller can see the lesson: in the lesson's
-- order (by moment; the start first), then newest first.
create function public.lesson_sparks(lesson uuid)
returns table (spark_id uuid, lesson_at_seconds integer)
  language sql stable security definer
  set search_path = ''
as $$
  select s.id, s.lesson_at_seconds
    from public.videos l
    join public.videos s on s.lesson_id = l.id
   where l.id = lesson
     and public.video_visible_to_caller(l.is_public, l.creator_id)
     and s.is_public and s.status = 'ready'
   order by s.lesson_at_seconds nulls first, s.created_at desc, s.id
   limit 50
$$;

revoke execute on function public.lesson_sparks(uuid) from public;
grant execute on function public.lesson_sparks(uuid) to anon, authenticated, service_role;

comment on function public.lesson_sparks(uuid) is
  'A lesson''s public ready sparks (at most 50, by moment then newest), when the caller can see the lesson (ADR 0050).';
