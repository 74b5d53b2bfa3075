-- ADRs 0022 and 0037: automatic captions as a job of their own.
--
-- When the media worker has an offline recogniser, finishing a video's transcode job queues a
-- `caption_video` job for it in the same transaction: speech to text runs after the video is
-- published, so it never delays publishing, and it is retried, leased and handed back like any
-- other job. Its failure never marks the video failed (worker/targets.ts): a video without
-- automatic captions still plays.

alter table public.media_jobs drop constraint media_jobs_kind_check;
alter table public.media_jobs
  add constraint media_jobs_kind_check check (kind in ('transcode_video', 'transcode_quote', 'caption_video'));

alter table public.media_jobs drop constraint media_jobs_kind_matches_target;
alter table public.media_jobs
  add constraint media_jobs_kind_matches_target check ((kind in ('transcode_video', 'caption_video')) = (video_id is not null));

-- One open job per video and kind: a caption job may wait while nothing else runs for the
-- video, and a video is never transcoded or captioned twice at once.
drop index public.media_jobs_one_open_video_idx;
create unique index media_jobs_one_open_video_idx on public.media_jobs (video_id, kind) where status in ('queued', 'running');

comment on table public.media_jobs is
  'Media worker queue (service role only): transcode_video / transcode_quote per upload, then caption_video (automatic captions) per transcoded video when the worker has a recogniser. A job is open while queued or running; a running job whose locked_until has passed may be taken again.';
