-- Private timestamped notes (ADR 0044): a learner's notes on a video, each at a moment of it.
--
-- * Many rows per (learner, video): the moment in whole seconds (what a `?t=` link
--   carries) and the text (1 to 2000 characters, not only spaces).
-- * Private: only the learner reads, writes, changes and removes their own notes. Not
--   the video's creator, not other learners, not admins, not visitors.
-- * A note is added only on a video the learner can see (the videos table's own
--   row-level security decides, inside the policy); its learner and video never change.
-- * Deleting the video or the account removes them (cascades).

create table public.video_notes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  video_id uuid not null references public.videos (id) on delete cascade,
  at_seconds integer not null check (at_seconds between 0 and 86400),
  body text not null check (char_length(body) between 1 and 2000 and btrim(body) <> ''),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.video_notes is
  'A learner''s private note at a moment of a video (the video page''s Notes, the profile''s Notes tab, Markdown export). Only the learner reads or writes it.';

-- The video page (one learner's notes on one video, by moment) and the Notes tab (by video).
create index video_notes_user_video_at_idx on public.video_notes (user_id, video_id, at_seconds, created_at);
-- The video's side of the foreign key (its delete cascades here).
create index video_notes_video_id_idx on public.video_notes (video_id);

alter table public.video_notes enable row level security;

create policy "learners read their own notes"
  on public.video_notes for select to authenticated
  using (user_id = (select auth.uid()));

-- The subquery runs as the caller: a video they cannot see is not found.
create policy "learners add notes to videos they can see"
  on public.video_notes for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.videos v where v.id = video_id)
  );

create policy "learners change their own notes"
  on public.video_notes for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "learners remove their own notes"
  on public.video_notes for delete to authenticated
  using (user_id = (select auth.uid()));

-- Visitors have no notes; a note's learner, video and creation time never change.
revoke all on public.video_notes from anon;
revoke all on public.video_notes from authenticated;
grant select, insert (video_id, at_seconds, body), delete on public.video_notes to authenticated;
grant update (at_seconds, body, updated_at) on public.video_notes to authenticated;
