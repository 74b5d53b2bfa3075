-- The media queue: one job per uploaded video or video quote, taken by workers
-- (service role) with FOR UPDATE SKIP LOCKED and a lease (locked_until), retried
-- after run_after until max_attempts.

create table public.media_jobs (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('transcode_video', 'transcode_quote')),
  video_id uuid references public.videos (id) on delete cascade,
  quote_id uuid references public.quotes (id) on delete cascade,
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer not null default 5 check (max_attempts > 0),
  run_after timestamptz not null default now(),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint media_jobs_one_target check (num_nonnulls(video_id, quote_id) = 1),
  constraint media_jobs_kind_matches_target check ((kind = 'transcode_video') = (video_id is not null))
);

comment on table public.media_jobs is
  'Transcoding queue for the media worker (service role only). A job is open while queued or running; a running job whose locked_until has passed may be taken again.';

-- The worker's poll: open jobs due now, oldest first.
create index media_jobs_queue_idx on public.media_jobs (run_after, id) where status in ('queued', 'running');
create unique index media_jobs_one_open_video_idx on public.media_jobs (video_id) where status in ('queued', 'running');
create unique index media_jobs_one_open_quote_idx on public.media_jobs (quote_id) where status in ('queued', 'running');
create index media_jobs_video_id_idx on public.media_jobs (video_id);
create index media_jobs_quote_id_idx on public.media_jobs (quote_id);

create trigger media_jobs_set_updated_at before update on public.media_jobs
  for each row execute function public.set_updated_at();

-- Only the service role (which bypasses RLS) and the database owner touch the queue.
alter table public.media_jobs enable row level security;
revoke all on public.media_jobs from anon, authenticated;

-- Enqueue on upload, and wake listening workers (LISTEN media_jobs) so they need
-- not poll tightly.
create function public.enqueue_media_job() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  job_id bigint;
begin
  if tg_table_name = 'videos' then
    insert into public.media_jobs (kind, video_id) values ('transcode_video', new.id) returning id into job_id;
  else
    insert into public.media_jobs (kind, quote_id) values ('transcode_quote', new.id) returning id into job_id;
  end if;
  perform pg_notify('media_jobs', job_id::text);
  return null;
end
$$;

revoke execute on function public.enqueue_media_job() from public, anon, authenticated;

create trigger videos_enqueue_media_job after insert on public.videos
  for each row when (new.source_path is not null)
  execute function public.enqueue_media_job();

create trigger quotes_enqueue_media_job after insert on public.quotes
  for each row when (new.type = 'video')
  execute function public.enqueue_media_job();
