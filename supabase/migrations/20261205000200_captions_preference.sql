-- ADR 0019: "captions on by default when the learner asked for it in their profile".
--
-- profiles.captions_on is private: whether someone watches with captions can say something
-- about their hearing, so, like the fields of 20261126000100 and the time zone of
-- 20261202000100, API roles get no SELECT on the column (a row policy cannot hide a column,
-- and the profiles select policy shows every row). The player reads the caller's own value
-- through public.profile_captions_on(); setting one's own is an UPDATE under the existing
-- profiles update policy (own row, or an admin's) with the table's UPDATE grant.
alter table public.profiles add column captions_on boolean not null default false;

comment on column public.profiles.captions_on is
  'The user asked for captions on by default (profile setting; the players show the first track). Private: read through public.profile_captions_on().';

-- Explicit, so a later blanket grant cannot make it readable by accident: no SELECT on the column.
revoke select (captions_on) on public.profiles from anon, authenticated;

create function public.profile_captions_on() returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select coalesce((select p.captions_on from public.profiles p where p.id = (select auth.uid())), false)
$$;

revoke execute on function public.profile_captions_on() from public, anon;
grant execute on function public.profile_captions_on() to authenticated, service_role;

comment on function public.profile_captions_on() is
  'Whether the caller asked for captions on by default (false for anyone without a profile).';
