-- A spark ends with at most one question (ADR 0049), as a rule of the table rather than of
-- the function that adds checkpoints.
--
-- Before: check_checkpoint() counted a spark's checkpoints under an advisory lock, which
-- holds when each insert runs in its own READ COMMITTED transaction; two REPEATABLE READ
-- transactions could each count none and both insert. And only add_checkpoint() put a
-- spark's question at its end: a direct insert (the service role) could put it anywhere.
--
-- Now: each checkpoint says whether its video is a spark (`on_spark`, set by the trigger,
-- never by the writer), a unique index allows one checkpoint per spark whatever the
-- isolation level, and the trigger refuses a spark's checkpoint anywhere but at its end.

alter table public.checkpoints add column on_spark boolean not null default false;

comment on column public.checkpoints.on_spark is
  'The video is a spark (set by the checkpoints_check trigger): at most one such checkpoint per video, at its end.';

-- The checkpoints already on sparks (the old trigger has kept them to one each).
update public.checkpoints c set on_spark = true
  from public.videos v
 where v.id = c.video_id and v.type = 'spark';

create unique index checkpoints_one_per_spark on public.checkpoints (video_id) where on_spark;

create or replace function public.check_checkpoint() returns trigger
  language plpgsql
  set search_path = ''
as $$
declare
  video record;
begin
  select v.type, v.duration_seconds into video from public.videos v where v.id = new.video_id;
  perform pg_advisory_xact_lock(hashtext('checkpoints'), hashtext(new.video_id::text));
  if video.duration_seconds is null then
    raise exception 'Checkpoints can be added once the video has been processed' using errcode = 'check_violation';
  end if;
  new.on_spark := video.type = 'spark';
  if new.on_spark and new.at_seconds <> video.duration_seconds then
    raise exception 'A spark''s question is at its end' using errcode = 'check_violation';
  end if;
  if new.at_seconds > video.duration_seconds or (video.type = 'video' and new.at_seconds >= video.duration_seconds) then
    raise exception 'A checkpoint must be inside the video' using errcode = 'check_violation';
  end if;
  if tg_op = 'INSERT' and new.on_spark
     and exists (select 1 from public.checkpoints c where c.video_id = new.video_id) then
    raise exception 'A spark can have only one checkpoint' using errcode = 'check_violation';
  end if;
  if tg_op = 'INSERT' and not new.on_spark
     and (select count(*) from public.checkpoints c where c.video_id = new.video_id) >= 20 then
    raise exception 'A video can have at most 20 checkpoints' using errcode = 'check_violation';
  end if;
  return new;
end
$$;

revoke execute on function public.check_checkpoint() from public, anon, authenticated;
