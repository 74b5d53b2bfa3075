-- ADR 0018: the admin console's audit trail, and the portfolio reconciliation.
--
-- Every admin action is recorded here by the database itself, whatever path it
-- took (the console, the JSON API, supabase-js): triggers on the rows an admin
-- action changes write the trail — a creator application reviewed, a report
-- decided, a user deleted or their role changed — and the two actions that
-- change no row of ours as the admin (a user added through the Auth admin API,
-- the portfolio reconciliation) write it through security-definer functions.
-- Admins read the trail; nobody writes, edits or deletes it through the API.

create table public.admin_audit (
  id uuid primary key default gen_random_uuid(),
  actor_id uuid references public.profiles (id) on delete set null,
  -- Kept as it was: the actor may be deleted later.
  actor_username text,
  action text not null check (action in (
    'application.approved', 'application.rejected',
    'report.reviewed', 'report.dismissed', 'report.removed',
    'user.added', 'user.deleted', 'user.role_changed',
    'portfolios.fixed'
  )),
  target_type text not null check (target_type in ('application', 'report', 'user', 'portfolios')),
  -- No foreign key: the target may be gone (a deleted user, removed content).
  target_id uuid,
  target_label text,
  details jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);

comment on table public.admin_audit is
  'Who did what to whom, for every admin action; written by triggers and security-definer functions only, read by admins.';

create index admin_audit_created_at_idx on public.admin_audit (created_at desc, id desc);
create index admin_audit_actor_id_idx on public.admin_audit (actor_id);

alter table public.admin_audit enable row level security;

create policy "admins read the audit trail"
  on public.admin_audit for select to authenticated
  using ((select public.is_admin()));

-- No write policy, and no write grant either: an API caller's insert, update or
-- delete fails outright (42501), admins included.
revoke insert, update, delete, truncate on public.admin_audit from anon, authenticated;

-- The one writer. Not callable by API roles: only the triggers and functions
-- below (security definer, running as their owner) reach it. Changes made with
-- no signed-in caller (the service role, migrations, seeds, the test runner)
-- are not admin actions and are not recorded.
create function public.write_admin_audit(
  action text,
  target_type text,
  target_id uuid,
  target_label text,
  details jsonb default '{}'::jsonb
) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  actor uuid := auth.uid();
begin
  if actor is null then
    return;
  end if;
  -- clock_timestamp(): several actions in one transaction keep their order.
  insert into public.admin_audit (actor_id, actor_username, action, target_type, target_id, target_label, details, created_at)
  values (
    (select p.id from public.profiles p where p.id = actor),
    (select p.username from public.profiles p where p.id = actor),
    write_admin_audit.action,
    write_admin_audit.target_type,
    write_admin_audit.target_id,
    write_admin_audit.target_label,
    coalesce(write_admin_audit.details, '{}'::jsonb),
    clock_timestamp()
  );
end
$$;

revoke execute on function public.write_admin_audit(text, text, uuid, text, jsonb) from public, anon, authenticated;

-- Creator applications: approved or rejected (public.review_creator_application, or an admin's update).
create function public.audit_application_review() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform public.write_admin_audit(
    'application.' || new.status,
    'application',
    new.id,
    (select p.username from public.profiles p where p.id = new.creator_id),
    jsonb_build_object('creator_id', new.creator_id, 'review_notes', new.review_notes)
  );
  return null;
end
$$;

revoke execute on function public.audit_application_review() from public, anon, authenticated;

create trigger creator_applications_audit_review after update of status on public.creator_applications
  for each row
  when (old.status = 'pending' and new.status in ('approved', 'rejected'))
  execute function public.audit_application_review();

-- Reports: reviewed, dismissed or removed. The reports public.remove_reported_content()
-- closes along with the one decided (a nested trigger) are not recorded again.
create function public.audit_report_decision() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if pg_catalog.pg_trigger_depth() > 1 then
    return null;
  end if;
  perform public.write_admin_audit(
    'report.' || new.status,
    'report',
    new.id,
    new.content_type || ' ' || new.content_id::text,
    jsonb_build_object('content_type', new.content_type, 'content_id', new.content_id, 'reason', new.reason)
  );
  return null;
end
$$;

revoke execute on function public.audit_report_decision() from public, anon, authenticated;

create trigger reports_audit_decision after update of status on public.reports
  for each row
  when (new.status is distinct from old.status and new.status in ('reviewed', 'dismissed', 'removed'))
  execute function public.audit_report_decision();

-- Users: deleted by an admin (the profile delete policy), or their role changed.
create function public.audit_user_change() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    perform public.write_admin_audit('user.deleted', 'user', old.id, old.username,
      jsonb_build_object('role', old.role));
  else
    perform public.write_admin_audit('user.role_changed', 'user', new.id, new.username,
      jsonb_build_object('from', old.role, 'to', new.role));
  end if;
  return null;
end
$$;

revoke execute on function public.audit_user_change() from public, anon, authenticated;

create trigger profiles_audit_delete after delete on public.profiles
  for each row execute function public.audit_user_change();

create trigger profiles_audit_role after update of role on public.profiles
  for each row
  when (new.role is distinct from old.role)
  execute function public.audit_user_change();

-- A user added through the Auth admin API (the service role creates the account,
-- so no trigger knows which admin asked): the admin records it right after.
create function public.record_user_added(user_id uuid) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  added public.profiles;
begin
  if not public.is_admin() then
    raise exception 'only admins add users' using errcode = '42501';
  end if;
  select * into added from public.profiles p where p.id = user_id;
  if not found then
    raise exception 'no user %', user_id using errcode = 'P0002';
  end if;
  perform public.write_admin_audit('user.added', 'user', added.id, added.username,
    jsonb_build_object('role', added.role));
end
$$;

revoke execute on function public.record_user_added(uuid) from public, anon;

comment on function public.record_user_added(uuid) is
  'Admins only (42501 otherwise): records in the audit trail that the caller added this user.';

-- Fix Portfolio Issues: reconciles profiles and pending applications with the
-- objects in the private portfolios bucket. Answers how many rows it fixed.
--   1. a profile's portfolio_path naming an object that does not exist is cleared;
--   2. a creator without a portfolio whose folder holds one gets the newest;
--   3. a pending application not showing its creator's current portfolio is updated.
-- Objects can only be in their owner's folder (the storage insert policy and the
-- path checks), so there is nothing to move.
create function public.fix_portfolios() returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  fixed integer := 0;
  changed integer;
begin
  if not public.is_admin() then
    raise exception 'only admins fix portfolios' using errcode = '42501';
  end if;

  update public.profiles p
     set portfolio_path = null, portfolio_type = null
   where p.portfolio_path is not null
     and not exists (
       select 1 from storage.objects o where o.bucket_id = 'portfolios' and o.name = p.portfolio_path
     );
  get diagnostics changed = row_count;
  fixed := fixed + changed;

  update public.profiles p
     set portfolio_path = latest.name, portfolio_type = latest.kind
    from (
      select distinct on (split_part(o.name, '/', 1))
             split_part(o.name, '/', 1) as folder,
             o.name,
             case
               when o.metadata ->> 'mimetype' like 'video/%' then 'video'
               when o.metadata ->> 'mimetype' like 'image/%' then 'image'
               else 'document'
             end as kind
        from storage.objects o
       where o.bucket_id = 'portfolios' and o.name like '%/%'
       order by split_part(o.name, '/', 1), o.created_at desc
    ) latest
   where p.portfolio_path is null
     and p.role = 'creator'
     and latest.folder = p.id::text;
  get diagnostics changed = row_count;
  fixed := fixed + changed;

  update public.creator_applications a
     set portfolio_path = p.portfolio_path, portfolio_type = p.portfolio_type
    from public.profiles p
   where p.id = a.creator_id
     and a.status = 'pending'
     and (a.portfolio_path, a.portfolio_type) is distinct from (p.portfolio_path, p.portfolio_type);
  get diagnostics changed = row_count;
  fixed := fixed + changed;

  perform public.write_admin_audit('portfolios.fixed', 'portfolios', null, null,
    jsonb_build_object('fixedCount', fixed));
  return fixed;
end
$$;

revoke execute on function public.fix_portfolios() from public, anon;

comment on function public.fix_portfolios() is
  'Admins only (42501 otherwise): reconciles profiles and pending applications with the portfolios bucket; answers the number of rows fixed.';

-- The emails of the given users, for the console's pending applications (emails
-- live in auth.users, which API callers cannot read). Admins only.
create function public.user_emails(user_ids uuid[]) returns table (id uuid, email text)
  language plpgsql stable security definer
  set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'only admins read emails' using errcode = '42501';
  end if;
  return query select u.id, u.email::text from auth.users u where u.id = any (user_ids);
end
$$;

revoke execute on function public.user_emails(uuid[]) from public, anon;

comment on function public.user_emails(uuid[]) is 'Admins only (42501 otherwise): the emails of the given users.';
