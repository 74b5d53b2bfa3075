-- The dashboard's time zone (ADR 0015) is private like the other personal fields
-- (ADR 0013): profiles.time_zone arrived after the per-column SELECT grants of
-- 20261126000100, so API roles cannot select it, and should not for other people. The
-- creator's own and an admin's view of it come through this function; setting one's
-- own stays an UPDATE under the profiles update policy.
create function public.profile_time_zone(user_id uuid) returns text
  language sql stable security definer
  set search_path = ''
as $$
  select p.time_zone
    from public.profiles p
   where p.id = profile_time_zone.user_id
     and (p.id = (select auth.uid()) or (select public.is_admin()))
$$;

revoke execute on function public.profile_time_zone(uuid) from public, anon;
grant execute on function public.profile_time_zone(uuid) to authenticated, service_role;

comment on function public.profile_time_zone(uuid) is
  'The time zone the dashboard uses for a user: the caller''s own, or anyone''s for an admin; null for anyone else.';
