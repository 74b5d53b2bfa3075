-- Resume where you left off (ADR 0034): each learner's last position in each video.
--
-- * One row per (learner, video): where playback was, how long the video is, whether it
--   was watched past 95 % (finished), and when. Written only by
--   public.save_watch_position(), which the player's progress reports call (the same
--   batched reports that count views, ADR 0015) and the API's PUT /videos/{id}/progress.
-- * Private: only the learner reads (and removes: the History tab) their own rows. Not
--   the video's creator, not other learners, not admins, not visitors.
-- * Deleting the video or the account removes them (cascades).

create table public.watch_progress (
  user_id uuid not null references public.profiles (id) on delete cascade,
  video_id uuid not null references public.videos (id) on delete cascade,
  position_seconds numeric(10, 3) not null check (position_seconds >= 0),
  duration_seconds numeric(10, 3) check (duration_seconds > 0),
  finished boolean not null default false,
  updated_at timestamptz not null default now(),
  primary key (user_id, video_id)
);

comment on table public.watch_progress is
  'A learner''s last position in a video (resume, Continue watching, History). Private to the learner; written only by public.save_watch_position().';

-- History and Continue watching: the learner's rows, latest first.
create index watch_progress_user_updated_idx on public.watch_progress (user_id, updated_at desc, video_id desc);
-- The video's side of the foreign key (its delete cascades here).
create index watch_progress_video_id_idx on public.watch_progress (video_id);

alter table public.watch_progress enable row level security;

create policy "learners read their own positions"
  on public.watch_progress for select to authenticated
  using (user_id = (select auth.uid()));

create policy "learners remove their own positions"
  on public.watch_progress for delete to authenticated
  using (user_id = (select auth.uid()));

-- Positions are written by the function below only (it checks the video can be watched).
revoke all on public.watch_progress from anon;
revoke insert, update, truncate on public.watch_progress from authenticated;

-- Saves the caller's position in a video they can watch; `duration` is the player's,
-- used only when the video row has none (a YouTube embed). Past 95 % of the duration the
-- video counts as finished. Refuses (42501) a video the caller cannot watch and callers
-- who are not signed in. Returns the row as saved.
create function public.save_watch_position(video_id uuid, seconds numeric, duration numeric default null)
  returns public.watch_progress
  language plpgsql security definer
  set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  total numeric;
  at numeric;
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
  insert into public.watch_progress as w (user_id, video_id, position_seconds, duration_seconds, finished, updated_at)
  values (uid, save_watch_position.video_id, round(at, 3), total,
          total is not null and at >= total * 0.95, now())
  on conflict on constraint watch_progress_pkey do update
    set position_seconds = excluded.position_seconds,
        duration_seconds = excluded.duration_seconds,
        finished = excluded.finished,
        updated_at = excluded.updated_at
  returning w.* into saved;
  return saved;
end
$$;

revoke execute on function public.save_watch_position(uuid, numeric, numeric) from public, anon;
grant execute on function public.save_watch_position(uuid, numeric, numeric) to authenticated, service_role;

comment on function public.save_watch_position(uuid, numeric, numeric) is
  'Saves the caller''s position in a video they can watch (finished past 95 %); the only writer of public.watch_progress.';
