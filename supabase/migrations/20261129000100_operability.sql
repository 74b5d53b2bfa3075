-- Operability (ADR 0017): worker heartbeats for /readyz, and the request id that
-- queued a media job, so the worker's logs of that job carry it.

-- One row per running media worker; each refreshes seen_at every few seconds and
-- removes its row when it stops. /readyz is ready when one was seen in the last
-- minute. Service role and the database owner only (RLS on, no API grants).
create table public.worker_heartbeats (
  worker_id text primary key check (char_length(worker_id) between 1 and 200),
  started_at timestamptz not null default now(),
  seen_at timestamptz not null default now()
);

comment on table public.worker_heartbeats is
  'Media workers alive now (service role only): /readyz needs one seen within the last minute.';

create index worker_heartbeats_seen_at_idx on public.worker_heartbeats (seen_at);

alter table public.worker_heartbeats enable row level security;
revoke all on public.worker_heartbeats from anon, authenticated;

-- The request that queued the job (set per transaction as lumen.request_id by the
-- app and the stand-in; null for jobs queued outside a request).
alter table public.media_jobs
  add column request_id text default nullif(current_setting('lumen.request_id', true), '')
    check (request_id is null or char_length(request_id) <= 64);

comment on column public.media_jobs.request_id is
  'The request id of the upload that queued this job: the worker logs the job under it.';
