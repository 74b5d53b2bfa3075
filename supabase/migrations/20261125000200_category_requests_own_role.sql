-- ADR 0018, the rest: verified creators' new category requests, reviewed by an admin
-- in the Pending Creators tab, and an admin who cannot change their own role.
--
-- A verified creator asks for another category by inserting a pending
-- creator_categories row (the existing insert policy). Unverified creators'
-- categories are decided with their application (public.review_creator_application);
-- a verified creator's pending rows are decided one by one here. Admins only, and
-- the audit trail records each decision (a trigger, whatever path it took).

alter table public.admin_audit drop constraint admin_audit_action_check;
alter table public.admin_audit add constraint admin_audit_action_check check (action in (
  'application.approved', 'application.rejected',
  'category.approved', 'category.rejected',
  'report.reviewed', 'report.dismissed', 'report.removed',
  'user.added', 'user.deleted', 'user.role_changed',
  'portfolios.fixed'
));
alter table public.admin_audit drop constraint admin_audit_target_type_check;
alter table public.admin_audit add constraint admin_audit_target_type_check
  check (target_type in ('application', 'category', 'report', 'user', 'portfolios'));

-- Approve or reject one pending category request. 42501 for anyone but an admin,
-- P0002 when there is no such pending request.
create function public.review_category_request(
  creator_id uuid,
  category_id text,
  approved boolean
) returns public.creator_categories
  language plpgsql security definer
  set search_path = ''
as $$
declare
  request public.creator_categories;
begin
  if not public.is_admin() then
    raise exception 'only admins review category requests' using errcode = '42501';
  end if;
  if approved is null then
    raise exception 'approved must be true or false' using errcode = '22004';
  end if;
  update public.creator_categories cc
     set status = case when approved then 'approved' else 'rejected' end
   where cc.creator_id = review_category_request.creator_id
     and cc.category_id = review_category_request.category_id
     and cc.status = 'pending'
  returning cc.* into request;
  if not found then
    raise exception 'no pending category request % for %', category_id, creator_id using errcode = 'P0002';
  end if;
  return request;
end
$$;

revoke execute on function public.review_category_request(uuid, text, boolean) from public, anon;

comment on function public.review_category_request(uuid, text, boolean) is
  'Admins only (42501 otherwise): approves or rejects a creator''s pending category request (P0002 when there is none).';

-- The trail: a category request decided. The categories an application review
-- approves along with the application (application.approved is recorded already)
-- are not recorded again: public.review_creator_application() names the creator
-- in a transaction-local setting while it approves them.
create function public.audit_category_review() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if coalesce(current_setting('lumen.reviewing_application_of', true), '') = new.creator_id::text then
    return null;
  end if;
  perform public.write_admin_audit(
    'category.' || new.status,
    'category',
    new.creator_id,
    (select p.username from public.profiles p where p.id = new.creator_id) || ': '
      || coalesce((select c.name from public.categories c where c.id = new.category_id), new.category_id),
    jsonb_build_object('creator_id', new.creator_id, 'category_id', new.category_id)
  );
  return null;
end
$$;

revoke execute on function public.audit_category_review() from public, anon, authenticated;

create trigger creator_categories_audit_review after update of status on public.creator_categories
  for each row
  when (old.status = 'pending' and new.status in ('approved', 'rejected'))
  execute function public.audit_category_review();

-- Nobody changes their own role through the API, admins included: an admin who
-- demoted themselves could lock the last admin out, and one role change is always
-- a second person's decision. Trusted callers (the operator, seeds) still may.
create function public.guard_own_role() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.role is distinct from old.role
     and old.id = (select auth.uid())
     and not public.is_trusted_caller() then
    raise exception 'nobody changes their own role' using errcode = '42501';
  end if;
  return new;
end
$$;

create trigger profiles_guard_own_role before update of role on public.profiles
  for each row execute function public.guard_own_role();

-- The application review, as before, marking the categories it approves along
-- with the application (see public.audit_category_review()).
create or replace function public.review_creator_application(
  application_id uuid,
  approved boolean,
  review_notes text default null
) returns public.creator_applications
  language plpgsql security definer
  set search_path = ''
as $$
declare
  application public.creator_applications;
begin
  if not public.is_admin() then
    raise exception 'only admins review creator applications' using errcode = '42501';
  end if;
  if approved is null then
    raise exception 'approved must be true or false' using errcode = '22004';
  end if;

  update public.creator_applications a
     set status = case when approved then 'approved' else 'rejected' end,
         review_notes = review_creator_application.review_notes,
         reviewed_by = auth.uid(),
         reviewed_at = now()
   where a.id = application_id and a.status = 'pending'
  returning a.* into application;

  if not found then
    raise exception 'no pending creator application %', application_id using errcode = 'P0002';
  end if;

  if approved then
    update public.profiles set is_verified = true where id = application.creator_id;
    perform pg_catalog.set_config('lumen.reviewing_application_of', application.creator_id::text, true);
    update public.creator_categories set status = 'approved'
     where creator_id = application.creator_id and status = 'pending';
    perform pg_catalog.set_config('lumen.reviewing_application_of', '', true);
  end if;

  return application;
end
$$;
