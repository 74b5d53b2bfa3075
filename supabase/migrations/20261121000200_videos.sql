-- Videos and sparks, and their view counts.
--
-- A video row is created by its creator once the upload is complete (source_path in
-- bucket uploads) or with a YouTube link (external_url). The media worker, running
-- as the service role, fills in the renditions and sets status 'ready'. Row owners
-- edit only what they wrote: title, description, category, type, visibility and
-- thumbnail; everything else is server-owned.

create table public.videos (
  id uuid primary key default gen_random_uuid(),
  creator_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  title text not null check (btrim(title) <> '' and char_length(title) <= 200),
  description text not null default '' check (char_length(description) <= 5000),
  category_id text not null default 'other' references public.categories (id),
  type text not null default 'video' check (type in ('video', 'spark')),
  is_public boolean not null default true,
  status text not null default 'processing' check (status in ('uploading', 'processing', 'ready', 'failed')),
  status_message text check (char_length(status_message) <= 1000),
  source_path text check (starts_with(source_path, creator_id::text || '/videos/')),
  hls_path text,
  mp4_path text,
  thumbnail_path text check (starts_with(thumbnail_path, creator_id::text || '/')),
  external_url text check (external_url ~ '^https://((www\.)?youtube\.com|youtu\.be)/'),
  duration_seconds numeric(10, 3) check (duration_seconds >= 0),
  width integer check (width > 0),
  height integer check (height > 0),
  size_bytes bigint check (size_bytes >= 0),
  like_count integer not null default 0 check (like_count >= 0),
  comment_count integer not null default 0 check (comment_count >= 0),
  quote_count integer not null default 0 check (quote_count >= 0),
  view_count bigint not null default 0 check (view_count >= 0),
  search tsvector generated always as (
    setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', description), 'B')
  ) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The worker measures the duration; a spark of 60 s or more never gets one (it fails).
  constraint videos_spark_under_60_seconds check (type <> 'spark' or duration_seconds is null or duration_seconds < 60),
  constraint videos_one_source check (source_path is null or external_url is null),
  constraint videos_has_source check (status = 'uploading' or source_path is not null or external_url is not null)
);

comment on table public.videos is
  'Long-form videos (type video, the feed) and sparks (type spark, under 60 s). Private ones (is_public false) are seen only by their creator and admins.';
comment on column public.videos.source_path is 'The uploaded original: object name in bucket uploads, <creator_id>/videos/...';
comment on column public.videos.hls_path is 'HLS master playlist: object name in bucket media, videos/<id>/...';
comment on column public.videos.mp4_path is 'Progressive MP4 fallback: object name in bucket media, videos/<id>/...';
comment on column public.videos.thumbnail_path is 'Object name in bucket thumbnails, <creator_id>/...';
comment on column public.videos.external_url is 'A YouTube link played in an embedded player instead of our own media.';
comment on column public.videos.status is 'uploading (trusted servers only), processing (waiting for the media worker), ready or failed (see status_message).';

-- Feed and sparks: public ready videos of one type, newest first, keyset on
-- (created_at, id), optionally in one category (that index also covers the
-- category_id foreign key: categories are never deleted).
create index videos_feed_idx on public.videos (type, created_at desc, id desc)
  where status = 'ready' and is_public;
create index videos_feed_category_idx on public.videos (category_id, type, created_at desc, id desc)
  where status = 'ready' and is_public;
create index videos_creator_idx on public.videos (creator_id, created_at desc, id desc);
create index videos_search_idx on public.videos using gin (search);
-- Storage asks which video a thumbnail belongs to (its select policies).
create index videos_thumbnail_path_idx on public.videos (thumbnail_path);

create trigger videos_stamp_created_at before insert on public.videos
  for each row execute function public.stamp_created_at();

create trigger videos_set_updated_at before update on public.videos
  for each row execute function public.set_updated_at();

-- Which categories the caller may publish in: the approved ones when they have any,
-- else all they asked for that were not rejected; 'other' (the default category)
-- always; admins any.
create function public.can_use_category(category_id text) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select can_use_category.category_id = 'other'
      or public.is_admin()
      or exists (
        select 1
          from public.creator_categories cc
         where cc.creator_id = (select auth.uid())
           and cc.category_id = can_use_category.category_id
           and (
             cc.status = 'approved'
             or (cc.status = 'pending' and not exists (
               select 1 from public.creator_categories a
                where a.creator_id = (select auth.uid()) and a.status = 'approved'
             ))
           )
      )
$$;

revoke execute on function public.can_use_category(text) from public, anon;

comment on function public.can_use_category(text) is
  'True when the caller may publish in the category: approved ones (else pending ones when none is approved), ''other'' always, admins any.';

-- API callers never choose server-owned values on insert: counters start at 0, media
-- details are the worker's, and the status follows from the source.
create function public.prepare_video_insert() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if public.is_trusted_caller() then
    return new;
  end if;
  if new.like_count <> 0 or new.comment_count <> 0 or new.quote_count <> 0 or new.view_count <> 0
     or num_nonnulls(new.status_message, new.hls_path, new.mp4_path, new.duration_seconds,
                     new.width, new.height, new.size_bytes) > 0 then
    raise exception 'counters and media details of a video are set by the server' using errcode = '42501';
  end if;
  new.status := case when new.source_path is null and new.external_url is not null then 'ready' else 'processing' end;
  return new;
end
$$;

create trigger videos_prepare_insert before insert on public.videos
  for each row execute function public.prepare_video_insert();

create trigger videos_protect_columns before update on public.videos
  for each row execute function public.protect_columns(
    'id', 'creator_id', 'created_at', 'status', 'status_message', 'source_path', 'hls_path', 'mp4_path',
    'external_url', 'duration_seconds', 'width', 'height', 'size_bytes',
    'like_count', 'comment_count', 'quote_count', 'view_count'
  );

-- Moving a video to another category obeys the same rule as publishing in it.
create function public.check_video_category() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if not public.is_trusted_caller() and not public.can_use_category(new.category_id) then
    raise exception 'category % is not available to you', new.category_id using errcode = '42501';
  end if;
  return new;
end
$$;

create trigger videos_check_category before update of category_id on public.videos
  for each row when (new.category_id is distinct from old.category_id)
  execute function public.check_video_category();

alter table public.videos enable row level security;

create policy "anyone sees public videos"
  on public.videos for select to anon
  using (is_public);

create policy "users see public videos, creators their own, admins all"
  on public.videos for select to authenticated
  using (is_public or creator_id = (select auth.uid()) or (select public.is_admin()));

create policy "verified creators publish own videos in their categories"
  on public.videos for insert to authenticated
  with check (
    creator_id = (select auth.uid())
    and (select public.is_verified_creator() or public.is_admin())
    and public.can_use_category(category_id)
  );

create policy "creators update their own videos and admins update any"
  on public.videos for update to authenticated
  using (creator_id = (select auth.uid()) or (select public.is_admin()))
  with check (creator_id = (select auth.uid()) or (select public.is_admin()));

create policy "creators delete their own videos and admins delete any"
  on public.videos for delete to authenticated
  using (creator_id = (select auth.uid()) or (select public.is_admin()));

-- Views ------------------------------------------------------------------------------

create table public.video_views (
  id bigint generated always as identity primary key,
  video_id uuid not null references public.videos (id) on delete cascade,
  viewer_id uuid references public.profiles (id) on delete set null,
  viewer_key text not null check (char_length(viewer_key) between 1 and 200),
  viewed_hour timestamptz not null,
  created_at timestamptz not null default now(),
  constraint video_views_once_per_hour unique (video_id, viewer_key, viewed_hour)
);

comment on table public.video_views is
  'At most one counted view per viewer, video and hour (UTC); written only by public.record_view().';
comment on column public.video_views.viewer_key is 'The viewer''s user id, or ''anon:'' followed by the key the server derives for a visitor.';

create index video_views_video_id_viewed_hour_idx on public.video_views (video_id, viewed_hour);
create index video_views_viewer_id_idx on public.video_views (viewer_id);

alter table public.video_views enable row level security;

create policy "creators read the views of their videos and admins read all"
  on public.video_views for select to authenticated
  using (
    (select public.is_admin())
    or exists (select 1 from public.videos v where v.id = video_id and v.creator_id = (select auth.uid()))
  );

-- Counts a view of a video the caller can see, once per viewer and hour; returns
-- whether it counted. Signed-in viewers are keyed by their user id (viewer_key is
-- ignored). Visitors' views are counted by the server as the service role, with a
-- viewer_key it derives (e.g. a hash of IP and agent): not executable by anon, or
-- anyone holding the anon key could count a view per invented key.
create function public.record_view(video_id uuid, viewer_key text default null) returns boolean
  language plpgsql security definer
  set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  key text;
begin
  -- The same visibility as the videos select policies (this runs as the owner).
  if not exists (
    select 1 from public.videos v
     where v.id = record_view.video_id
       and (v.is_public or v.creator_id = uid or (uid is not null and public.is_admin()))
  ) then
    return false;
  end if;

  if uid is not null then
    key := uid::text;
  elsif nullif(btrim(record_view.viewer_key), '') is not null then
    key := 'anon:' || left(btrim(record_view.viewer_key), 128);
  else
    raise exception 'a visitor''s view needs a viewer_key' using errcode = '22004';
  end if;

  insert into public.video_views (video_id, viewer_id, viewer_key, viewed_hour)
  values (
    record_view.video_id,
    (select p.id from public.profiles p where p.id = uid),
    key,
    date_trunc('hour', now(), 'UTC')
  )
  on conflict on constraint video_views_once_per_hour do nothing;

  if not found then
    return false;
  end if;

  update public.videos set view_count = view_count + 1 where id = record_view.video_id;
  return true;
end
$$;

revoke execute on function public.record_view(uuid, text) from public, anon;

comment on function public.record_view(uuid, text) is
  'Counts a view of a visible video once per viewer and hour; true when it counted.';
