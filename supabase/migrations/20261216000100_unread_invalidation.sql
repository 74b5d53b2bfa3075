-- Pushed invalidation of the app's cached unread counts
-- (docs/decisions/0062-unread-count-with-the-session-cache.md). The bell's count is kept by
-- each app process beside its cached sessions (20261212133000_session_invalidation.sql) and
-- dropped when the recipient's id arrives on the `lumen_unread_changed` channel: sent when
-- a transaction that changed their count of unread notifications commits — an unread
-- notification inserted or deleted (a video's deletion, a user's, a cascade), read_at set or
-- cleared, a notification moved to another recipient. NOTIFY is transactional (a rolled-back
-- change sends nothing) and the same payload is sent once per transaction, so marking a
-- hundred notifications read sends one.
--
-- Statement triggers over the transition tables: a bulk insert (a video's followers told it
-- is published) or "mark all read" runs the function once, not once a row.

-- The one sender: the triggers' function calls it for each recipient whose count changed.
-- Its own function so that pgTAP can stand in for it and see who would be told
-- (supabase/tests/450-unread-invalidation.sql).
create function public.send_unread_changed(recipient uuid) returns void
  language sql volatile
  set search_path = ''
as $$
  select pg_catalog.pg_notify('lumen_unread_changed', recipient::text)
$$;

revoke execute on function public.send_unread_changed(uuid) from public, anon, authenticated;

comment on function public.send_unread_changed(uuid) is
  'Tells every app process (LISTEN lumen_unread_changed) that a user''s unread notifications changed, so it drops their cached count.';

create function public.notify_unread_changed() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform public.send_unread_changed(r.recipient_id)
      from (select distinct n.recipient_id from new_rows n where n.read_at is null) r;
  elsif tg_op = 'DELETE' then
    perform public.send_unread_changed(r.recipient_id)
      from (select distinct o.recipient_id from old_rows o where o.read_at is null) r;
  else
    perform public.send_unread_changed(r.recipient_id)
      from (
        select o.recipient_id from old_rows o join new_rows n on n.id = o.id
         where (o.read_at is null) <> (n.read_at is null) or o.recipient_id <> n.recipient_id
        union
        select n.recipient_id from old_rows o join new_rows n on n.id = o.id
         where (o.read_at is null) <> (n.read_at is null) or o.recipient_id <> n.recipient_id
      ) r;
  end if;
  return null;
end
$$;

revoke execute on function public.notify_unread_changed() from public, anon, authenticated;

comment on function public.notify_unread_changed() is
  'AFTER statement trigger on public.notifications: sends the id of each recipient whose unread count the statement changed (public.send_unread_changed).';

create trigger notify_unread_inserted after insert on public.notifications
  referencing new table as new_rows
  for each statement execute function public.notify_unread_changed();

create trigger notify_unread_updated after update on public.notifications
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.notify_unread_changed();

create trigger notify_unread_deleted after delete on public.notifications
  referencing old table as old_rows
  for each statement execute function public.notify_unread_changed();
