-- ADR 0025 (time to playable): the media worker publishes a video in two
-- phases (docs/decisions/0025-time-to-playable.md). Phase 1 makes one fast rendition
-- and the poster and marks the video ready at once; phase 2 adds the other rungs of
-- the ladder to its master playlist. Between the two, the video plays and its creator
-- is told "Playable now, more qualities coming": that is this flag.
--
-- Server-owned like the other media columns: refused on insert from API callers
-- (prepare_*_insert), kept on update (protect_columns), readable like the rest of the
-- row (videos has per-column SELECT grants since 20261124000500). Only a ready video or
-- response waits for more qualities.

alter table public.videos
  add column more_qualities_pending boolean not null default false,
  add constraint videos_pending_only_when_ready check (not more_qualities_pending or status = 'ready');

comment on column public.videos.more_qualities_pending is
  'True while the media worker is still adding renditions to a video that already plays (set by the worker).';

alter table public.quotes
  add column response_more_qualities_pending boolean not null default false,
  add constraint quotes_pending_only_when_ready
    check (not response_more_qualities_pending or response_status = 'ready');

comment on column public.quotes.response_more_qualities_pending is
  'True while the media worker is still adding renditions to a video response that already plays (set by the worker).';

grant select (more_qualities_pending) on public.videos to anon, authenticated;

create or replace function public.prepare_video_insert() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if public.is_trusted_caller() then
    return new;
  end if;
  if new.like_count <> 0 or new.comment_count <> 0 or new.quote_count <> 0 or new.view_count <> 0
     or new.more_qualities_pending
     or num_nonnulls(new.status_message, new.hls_path, new.mp4_path, new.duration_seconds,
                     new.width, new.height, new.size_bytes) > 0 then
    raise exception 'counters and media details of a video are set by the server' using errcode = '42501';
  end if;
  new.status := case when new.source_path is null and new.external_url is not null then 'ready' else 'processing' end;
  return new;
end
$$;

create or replace function public.prepare_quote_insert() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if public.is_trusted_caller() then
    return new;
  end if;
  if new.like_count <> 0
     or new.response_more_qualities_pending
     or num_nonnulls(
       new.response_hls_path, new.response_mp4_path, new.response_poster_path, new.response_status_message
     ) > 0 then
    raise exception 'counters and media details of a quote are set by the server' using errcode = '42501';
  end if;
  new.response_status := case when new.type = 'video' then 'processing' end;
  return new;
end
$$;

drop trigger videos_protect_columns on public.videos;
create trigger videos_protect_columns before update on public.videos
  for each row execute function public.protect_columns(
    'id', 'creator_id', 'created_at', 'status', 'status_message', 'source_path', 'hls_path', 'mp4_path',
    'external_url', 'duration_seconds', 'width', 'height', 'size_bytes',
    'like_count', 'comment_count', 'quote_count', 'view_count', 'more_qualities_pending'
  );

drop trigger quotes_protect_columns on public.quotes;
create trigger quotes_protect_columns before update on public.quotes
  for each row execute function public.protect_columns(
    'id', 'user_id', 'video_id', 'type', 'created_at', 'response_source_path', 'response_hls_path',
    'response_mp4_path', 'response_poster_path', 'response_status', 'response_status_message', 'like_count',
    'response_more_qualities_pending'
  );
