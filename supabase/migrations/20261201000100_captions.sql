-- ADR 0019: caption tracks and their cues.
--
-- A track is one language of captions for one video or spark (BCP 47 tag and a label),
-- uploaded by its creator (or an admin) or made automatically. The cues are rows, not a
-- stored file: the transcript, the WebVTT served to players and the full-text search over
-- what is said all read the same rows, and deleting a video or a track leaves no file
-- behind (docs/decisions/0019-captions.md).
--
-- Who may read: whoever can see the video (the videos policies decide, as for comments).
-- Who may write: the video's creator and admins (public.can_edit_captions).

create function public.can_edit_captions(video_id uuid) returns boolean
  language sql stable
  set search_path = ''
as $$
  select exists (
    select 1 from public.videos v
     where v.id = can_edit_captions.video_id
       and (v.creator_id = (select auth.uid()) or (select public.is_admin()))
  )
$$;

revoke execute on function public.can_edit_captions(uuid) from public, anon;

comment on function public.can_edit_captions(uuid) is
  'True when the caller created the video or is an admin: the caption tracks write rule.';

create table public.caption_tracks (
  id uuid primary key default gen_random_uuid(),
  video_id uuid not null references public.videos (id) on delete cascade,
  -- BCP 47: a 2–3 letter language, then subtags (region, script, variant).
  language text not null check (language ~ '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$' and char_length(language) <= 35),
  label text not null check (btrim(label) <> '' and char_length(label) <= 60),
  source text not null default 'upload' check (source in ('upload', 'automatic')),
  cue_count integer not null default 0 check (cue_count >= 0),
  created_by uuid default auth.uid() references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (video_id, language),
  -- The cues' composite key points here, so a cue always carries its track's video.
  unique (id, video_id)
);

comment on table public.caption_tracks is 'One language of captions for a video; its cues are in caption_cues.';

create index caption_tracks_created_by_idx on public.caption_tracks (created_by);

create trigger caption_tracks_stamp_created_at before insert on public.caption_tracks
  for each row execute function public.stamp_created_at();

create trigger caption_tracks_set_updated_at before update on public.caption_tracks
  for each row execute function public.set_updated_at();

create trigger caption_tracks_protect_columns before update on public.caption_tracks
  for each row execute function public.protect_columns('id', 'video_id', 'created_by', 'created_at');

-- At most 20 languages per video: enough for any lecture, and a bound on what one creator can store.
create function public.limit_caption_tracks() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(hashtext('caption_tracks'), hashtext(new.video_id::text));
  if (select count(*) from public.caption_tracks t where t.video_id = new.video_id) >= 20 then
    raise exception 'A video can have at most 20 caption tracks' using errcode = 'check_violation';
  end if;
  return new;
end
$$;

revoke execute on function public.limit_caption_tracks() from public, anon, authenticated;

create trigger caption_tracks_limit before insert on public.caption_tracks
  for each row execute function public.limit_caption_tracks();

create table public.caption_cues (
  track_id uuid not null,
  video_id uuid not null,
  seq integer not null check (seq >= 0),
  start_ms integer not null check (start_ms >= 0),
  end_ms integer not null,
  body text not null check (btrim(body) <> '' and char_length(body) <= 1000),
  -- 'simple': no stemming across languages; a phrase search matches the words as said.
  search tsvector generated always as (to_tsvector('simple', body)) stored,
  -- Leads with the foreign key's columns, so the key also serves it.
  primary key (track_id, video_id, seq),
  foreign key (track_id, video_id) references public.caption_tracks (id, video_id) on delete cascade,
  check (end_ms >= start_ms)
);

comment on table public.caption_cues is 'The cues of a caption track in time order: the transcript, the WebVTT and the search read them.';

create index caption_cues_video_id_idx on public.caption_cues (video_id, start_ms);
create index caption_cues_search_idx on public.caption_cues using gin (search);

alter table public.caption_tracks enable row level security;
alter table public.caption_cues enable row level security;

create policy "everyone reads the captions of videos they can see"
  on public.caption_tracks for select to anon, authenticated
  using (exists (select 1 from public.videos v where v.id = video_id));

create policy "creators and admins add captions"
  on public.caption_tracks for insert to authenticated
  with check (public.can_edit_captions(video_id) and (created_by = (select auth.uid())));

create policy "creators and admins change captions"
  on public.caption_tracks for update to authenticated
  using (public.can_edit_captions(video_id))
  with check (public.can_edit_captions(video_id));

create policy "creators and admins delete captions"
  on public.caption_tracks for delete to authenticated
  using (public.can_edit_captions(video_id));

create policy "everyone reads the cues of videos they can see"
  on public.caption_cues for select to anon, authenticated
  using (exists (select 1 from public.videos v where v.id = video_id));

create policy "creators and admins add cues"
  on public.caption_cues for insert to authenticated
  with check (public.can_edit_captions(video_id));

create policy "creators and admins delete cues"
  on public.caption_cues for delete to authenticated
  using (public.can_edit_captions(video_id));

-- Cues are replaced, never edited in place; visitors write nothing.
revoke insert, update, delete, truncate on public.caption_tracks, public.caption_cues from anon;
revoke update, truncate on public.caption_cues from authenticated;
revoke truncate on public.caption_tracks from authenticated;
