-- Notifications by email: per-type preferences, an outbox the worker drains, a daily digest
-- (docs/decisions/0046-notification-emails.md).
--
-- Each user chooses, per notification type, how they hear of it: in the app only
-- ('in_app'), in the app and by email at once ('email'), or in the app and in a daily
-- digest ('digest'). Without a choice of theirs, a type's default applies: a reviewed
-- creator application and a failed upload by email, the rest in the app only.
--
-- The email is queued by a trigger on public.notifications, in the transaction that
-- writes the notification: it is never lost when a process dies after the commit, and
-- never queued twice (one outbox row per notification: a unique key). The media worker
-- drains public.email_outbox with a lease like media_jobs' (a worker that dies between
-- taking a row and sending it leaves it to be taken again once the lease has passed),
-- retries with a backoff, and gives up after max_attempts.

create function public.notification_default_channel(type text) returns text
  language sql immutable
  set search_path = ''
as $$
  select case when notification_default_channel.type in ('application_reviewed', 'video_failed') then 'email' else 'in_app' end
$$;

comment on function public.notification_default_channel(text) is
  'How a user hears of a notification type until they choose: email for a reviewed application and a failed upload, else in the app only.';

create table public.notification_preferences (
  user_id uuid not null references public.profiles (id) on delete cascade,
  type text not null check (type in (
    'video_published', 'video_commented', 'video_liked', 'video_quoted', 'followed',
    'application_reviewed', 'category_reviewed', 'report_handled', 'video_processed', 'video_failed'
  )),
  channel text not null check (channel in ('in_app', 'email', 'digest')),
  updated_at timestamptz not null default now(),
  primary key (user_id, type)
);

comment on table public.notification_preferences is
  'A user''s choice per notification type: in_app (the app only), email (the app and an email at once), digest (the app and a daily digest). No row: notification_default_channel().';

alter table public.notification_preferences enable row level security;

create policy "users manage their own notification preferences"
  on public.notification_preferences for all to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

revoke all on public.notification_preferences from anon, authenticated;
grant select, insert, update, delete on public.notification_preferences to authenticated;

create trigger notification_preferences_set_updated_at before update on public.notification_preferences
  for each row execute function public.set_updated_at();

-- The channel in force for one user and type.
create function public.notification_channel(user_id uuid, type text) returns text
  language sql stable
  set search_path = ''
as $$
  select coalesce(
    (select p.channel from public.notification_preferences p
      where p.user_id = notification_channel.user_id and p.type = notification_channel.type),
    public.notification_default_channel(notification_channel.type)
  )
$$;

-- The outbox: one row per email to send, an immediate one (a notification) or a digest.
create table public.email_outbox (
  id bigint generated always as identity primary key,
  recipient_id uuid not null references public.profiles (id) on delete cascade,
  kind text not null check (kind in ('notification', 'digest')),
  -- The notification it tells of (immediate emails): one email per notification at most,
  -- and none once the notification is gone (its object deleted, its actor banned).
  notification_id uuid unique references public.notifications (id) on delete cascade,
  status text not null default 'queued' check (status in ('queued', 'running', 'sent', 'failed', 'dropped')),
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer not null default 5 check (max_attempts > 0),
  run_after timestamptz not null default now(),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint email_outbox_kind_matches check ((kind = 'notification') = (notification_id is not null))
);

comment on table public.email_outbox is
  'Emails for the worker to send (service role only): queued, running under a lease (locked_until), sent, failed after max_attempts, or dropped (nothing left to tell, or no address).';

-- The worker's poll: open rows due now, oldest first.
create index email_outbox_queue_idx on public.email_outbox (run_after, id) where status in ('queued', 'running');
-- A user's last digest (and the recipient foreign key).
create index email_outbox_recipient_idx on public.email_outbox (recipient_id, kind, created_at);

create trigger email_outbox_set_updated_at before update on public.email_outbox
  for each row execute function public.set_updated_at();

alter table public.email_outbox enable row level security;
revoke all on public.email_outbox from anon, authenticated;

-- Notifications waiting for their recipient's next digest (email_id null), and those a
-- digest email took.
create table public.notification_digest_items (
  notification_id uuid primary key references public.notifications (id) on delete cascade,
  recipient_id uuid not null references public.profiles (id) on delete cascade,
  email_id bigint references public.email_outbox (id) on delete cascade,
  created_at timestamptz not null default now()
);

comment on table public.notification_digest_items is
  'Notifications for a daily digest (service role only): pending while email_id is null, then the digest email that tells of them.';

create index notification_digest_items_recipient_idx on public.notification_digest_items (recipient_id, created_at);
create index notification_digest_items_email_idx on public.notification_digest_items (email_id);

alter table public.notification_digest_items enable row level security;
revoke all on public.notification_digest_items from anon, authenticated;

-- Every notification, however it was written (public.notify() or a trigger's own insert),
-- queues its email per the recipient's choice. A notification dropped by its group key
-- (on conflict do nothing) fires no insert trigger, so it queues nothing either.
create function public.queue_notification_email() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  channel text := public.notification_channel(new.recipient_id, new.type);
begin
  if channel = 'email' then
    insert into public.email_outbox (recipient_id, kind, notification_id)
    values (new.recipient_id, 'notification', new.id)
    on conflict (notification_id) do nothing;
  elsif channel = 'digest' then
    insert into public.notification_digest_items (notification_id, recipient_id)
    values (new.id, new.recipient_id)
    on conflict (notification_id) do nothing;
  end if;
  return null;
end
$$;

revoke execute on function public.queue_notification_email() from public, anon, authenticated;

create trigger notifications_queue_email after insert on public.notifications
  for each row execute function public.queue_notification_email();

-- The digests due now: one email per user whose oldest waiting item is at least `period`
-- old and who had no digest within `period` — so a digest comes at most once a day, and
-- an item waits at most about a day. One caller at a time (an advisory lock), so two
-- workers never queue the same digest. Answers how many digests it queued.
create function public.queue_notification_digests(period interval default interval '24 hours') returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  due record;
  email bigint;
  queued integer := 0;
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('lumen notification digests'));
  for due in
    select i.recipient_id
      from public.notification_digest_items i
     where i.email_id is null
     group by i.recipient_id
    having min(i.created_at) <= now() - period
       and not exists (
         select 1 from public.email_outbox o
          where o.recipient_id = i.recipient_id and o.kind = 'digest' and o.created_at > now() - period
       )
  loop
    insert into public.email_outbox (recipient_id, kind) values (due.recipient_id, 'digest') returning id into email;
    update public.notification_digest_items set email_id = email
     where recipient_id = due.recipient_id and email_id is null;
    queued := queued + 1;
  end loop;
  return queued;
end
$$;

revoke execute on function public.queue_notification_digests(interval) from public, anon, authenticated;
grant execute on function public.queue_notification_digests(interval) to service_role;

-- Where the worker sends a user's email: their address, unless the account is deleted or
-- banned (then null, and the email is dropped). Auth's table is not the service role's to
-- read directly.
create function public.notification_email_address(user_id uuid) returns text
  language sql stable security definer
  set search_path = ''
as $$
  select u.email::text from auth.users u
   where u.id = notification_email_address.user_id
     and u.deleted_at is null
     and (u.banned_until is null or u.banned_until <= now())
$$;

revoke execute on function public.notification_email_address(uuid) from public, anon, authenticated;
grant execute on function public.notification_email_address(uuid) to service_role;
