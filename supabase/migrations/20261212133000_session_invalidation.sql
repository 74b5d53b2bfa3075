-- Pushed invalidation of the app's session cache (docs/decisions/0033-session-cache-pushed-invalidation.md).
-- Every change that can take a signed-in user's access away, or change what the
-- pages show of them, sends the user's id on the `lumen_session_changed` channel
-- when its transaction commits: a session ended (sign-out, other sessions ended by
-- a password change, a ban or a soft delete — the trigger of 20261124000200 deletes
-- the rows — or the user deleted, which cascades) or its `not_after` changed; the
-- profile's role, verification, username or avatar changed; the profile deleted.
-- Each app process listens and drops what it cached for that user. NOTIFY is
-- transactional: a rolled-back change sends nothing, and several notifications of
-- the same payload in one transaction are sent once.

create function public.notify_session_changed() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  changed uuid;
begin
  if tg_table_schema = 'auth' and tg_table_name = 'sessions' then
    changed := coalesce(old.user_id, new.user_id);
  else
    changed := coalesce(old.id, new.id);
  end if;
  perform pg_notify('lumen_session_changed', changed::text);
  return null;
end
$$;

revoke execute on function public.notify_session_changed() from public, anon, authenticated;

comment on function public.notify_session_changed() is
  'AFTER trigger: tells every app process (LISTEN lumen_session_changed) that a user''s session or profile rights changed, so it drops what it cached.';

create trigger notify_session_ended after delete on auth.sessions
  for each row execute function public.notify_session_changed();

create trigger notify_session_limited after update of not_after, user_id on auth.sessions
  for each row
  when (old.not_after is distinct from new.not_after or old.user_id is distinct from new.user_id)
  execute function public.notify_session_changed();

create trigger notify_user_removed after update of deleted_at, banned_until on auth.users
  for each row
  when (old.deleted_at is distinct from new.deleted_at or old.banned_until is distinct from new.banned_until)
  execute function public.notify_session_changed();

create trigger notify_user_deleted after delete on auth.users
  for each row execute function public.notify_session_changed();

create trigger notify_profile_changed after update of role, is_verified, username, avatar_path on public.profiles
  for each row
  when (old.role is distinct from new.role
     or old.is_verified is distinct from new.is_verified
     or old.username is distinct from new.username
     or old.avatar_path is distinct from new.avatar_path)
  execute function public.notify_session_changed();

create trigger notify_profile_deleted after delete on public.profiles
  for each row execute function public.notify_session_changed();

-- When the caller's session ends by itself (GoTrue's `not_after`, a session time box):
-- no row changes then, so nothing is notified, and the app keeps a cached session no
-- longer than this. Null when the session has no end (or is not live).
create function public.session_not_after() returns timestamptz
  language sql stable security definer
  set search_path = ''
as $$
  select s.not_after from auth.sessions s
   where s.id = nullif((select auth.jwt()) ->> 'session_id', '')::uuid
     and s.user_id = (select auth.uid())
$$;

revoke execute on function public.session_not_after() from public, anon;

comment on function public.session_not_after() is
  'When the caller''s session ends by itself (auth.sessions.not_after), or null: the app caches a session no longer than this.';
