-- Cheaper position writes (ADR 0056): a report that repeats the saved position writes nothing.
--
-- * public.save_watch_position() reads the learner's row first (one primary-key lookup) and
--   returns it as it is when the new position is within 1 s of the saved one, the length and
--   `finished` are unchanged, and the row was saved in the last minute: no new row version,
--   no index entries (every update of `updated_at` adds one to each of the table's three
--   indexes), no WAL. A position that moved, a video that became finished, or the first
--   report of a later visit (the row older than a minute, so History's order stays right)
--   writes as before. Same signature, same checks, same answers otherwise.
-- * Everything else is unchanged: the only writer of public.watch_progress, the caller's
--   own rows only, 42501 for visitors and videos the caller cannot watch, finished past 95 %.

create or replace function public.save_watch_position(video_id uuid, seconds numeric, duration numeric default null)
  returns public.watch_progress
  language plpgsql security definer
  set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  total numeric;
  at numeric;
  done boolean;
  saved public.watch_progress;
begin
  if uid is null or not exists (select 1 from public.profiles p where p.id = uid) then
    raise exception 'only a signed-in learner has positions' using errcode = '42501';
  end if;
  select coalesce(v.duration_seconds, nullif(greatest(coalesce(save_watch_position.duration, 0), 0), 0)) into total
    from public.videos v
   where v.id = save_watch_position.video_id
     and (v.status = 'ready' or v.external_url is not null)
     and (v.is_public or v.creator_id = uid or public.is_admin());
  if not found then
    raise exception 'no such video to watch' using errcode = '42501';
  end if;
  at := greatest(0, coalesce(save_watch_position.seconds, 0));
  if total is not null then
    at := least(at, total);
  end if;
  at := round(at, 3);
  done := total is not null and at >= total * 0.95;
  -- A repeat of what was just saved (a pause, then the page hidden, then left) writes nothing.
  select w.* into saved from public.watch_progress w
   where w.user_id = uid and w.video_id = save_watch_position.video_id;
  if found and abs(saved.position_seconds - at) < 1 and saved.finished = done
     and saved.duration_seconds is not distinct from total and saved.updated_at > now() - interval '1 minute' then
    return saved;
  end if;
  insert into public.watch_progress as w (user_id, video_id, position_seconds, duration_seconds, finished, updated_at)
  values (uid, save_watch_position.video_id, at, total, done, now())
  on conflict on constraint watch_progress_pkey do update
    set position_seconds = excluded.position_seconds,
        duration_seconds = excluded.duration_seconds,
        finished = excluded.finished,
        updated_at = excluded.updated_at
  returning w.* into saved;
  return saved;
end
$$;

comment on function public.save_watch_position(uuid, numeric, numeric) is
  'Saves the caller''s position in a video they can watch (finished past 95 %); a repeat within 1 s of the position saved in the last minute writes nothing. The only writer of public.watch_progress.';
