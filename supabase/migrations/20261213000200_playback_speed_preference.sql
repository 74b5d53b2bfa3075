-- The learner's playback speed, remembered across videos and devices (ADR 0043).
--
-- profiles.playback_rate is private, like profiles.captions_on (20261205000200): API roles get
-- no SELECT on the column (a row policy cannot hide a column, and the profiles select policy
-- shows every row). The players read the caller's own value through
-- public.profile_playback_rate(); setting one's own is an UPDATE under the existing profiles
-- update policy (own row, or an admin's) with the table's UPDATE grant. Only the player's
-- steps are stored: 0.5× to 2× by 0.25.
alter table public.profiles add column playback_rate real not null default 1
  constraint profiles_playback_rate_step check (playback_rate in (0.5, 0.75, 1, 1.25, 1.5, 1.75, 2));

comment on column public.profiles.playback_rate is
  'The speed the players start at (0.5 to 2 by 0.25; profile setting, also chosen in the player). Private: read through public.profile_playback_rate().';

-- Explicit, so a later blanket grant cannot make it readable by accident: no SELECT on the column.
revoke select (playback_rate) on public.profiles from anon, authenticated;

create function public.profile_playback_rate() returns real
  language sql stable security definer
  set search_path = ''
as $$
  select coalesce((select p.playback_rate from public.profiles p where p.id = (select auth.uid())), 1::real)
$$;

revoke execute on function public.profile_playback_rate() from public, anon;
grant execute on function public.profile_playback_rate() to authenticated, service_role;

comment on function public.profile_playback_rate() is
  'The caller''s playback speed (1 for anyone without a profile).';
