-- The app's rate-limit windows (the /api front door, the sign-in screen's email check), shared
-- by every process and instance on the database: counted in memory, N processes would allow
-- N times the attempts. Fixed windows: one row per key, its count and when the window ends.
-- Auth's own limits live in auth.rate_limits (the stand-in's) or in GoTrue.

create table public.rate_limits (
  key text primary key check (length(key) <= 200),
  count integer not null check (count >= 0),
  reset_at timestamptz not null
);

comment on table public.rate_limits is
  'Rate-limit windows of the app (service role only): count requests under key until reset_at, then start again.';

create index rate_limits_reset_at_idx on public.rate_limits (reset_at);

-- Only the service role (which bypasses RLS) and the database owner touch the windows.
alter table public.rate_limits enable row level security;
revoke all on public.rate_limits from anon, authenticated;
