-- ADR 0012, findings 3 and 4: a deleted or banned user's sessions end at once, so
-- every check of `session_id` (the stand-in's Auth and Storage, the app) refuses
-- their tokens from the next request. A hard delete (the admin API, or deleting
-- the profile, which deletes the auth user) already cascades to auth.sessions and
-- auth.refresh_tokens; a soft delete or a ban keeps the user row, so this trigger
-- ends the sessions itself.
create function public.end_sessions_of_removed_user() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  delete from auth.sessions where user_id = new.id;
  return null;
end
$$;

revoke execute on function public.end_sessions_of_removed_user() from public, anon, authenticated;

comment on function public.end_sessions_of_removed_user() is
  'AFTER UPDATE on auth.users: a user who was just soft-deleted or banned loses every session (and refresh token).';

create trigger on_auth_user_removed after update of deleted_at, banned_until on auth.users
  for each row
  when ((new.deleted_at is not null and old.deleted_at is null)
     or (new.banned_until is not null and new.banned_until > now()
         and (old.banned_until is null or old.banned_until <= now())))
  execute function public.end_sessions_of_removed_user();
