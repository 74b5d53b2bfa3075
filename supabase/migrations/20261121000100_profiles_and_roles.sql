-- Profiles, content categories and the role model.
--
-- A profile row exists for every auth user (created by a trigger on auth.users).
-- Its `role` (user, creator, admin) and `is_verified` are the only source of a
-- caller's rights: policies read them through public.is_admin() and friends, never
-- from JWT metadata, so a demoted admin loses their rights with their next query.

-- Shared helpers -------------------------------------------------------------------

create function public.set_updated_at() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- True when the statement does not come from an API caller (anon or authenticated):
-- the service role, a server connected as the database owner (migrations, seeds,
-- the media worker), or one of our security-definer functions, which run as their
-- owner (counters, creator review). Stays SECURITY INVOKER: it reads current_user.
create function public.is_trusted_caller() returns boolean
  language sql stable
  set search_path = ''
as $$
  select current_user not in ('anon', 'authenticated', 'authenticator')
$$;

comment on function public.is_trusted_caller() is
  'True for the service role, the database owner and our own security-definer functions; false for anon/authenticated API callers.';

-- BEFORE INSERT trigger: API callers do not choose when their rows were made (a
-- video dated in the future would top the feed forever). Trusted callers (seeds,
-- imports) may.
create function public.stamp_created_at() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if not public.is_trusted_caller() then
    new.created_at := now();
  end if;
  return new;
end
$$;

-- BEFORE UPDATE trigger: refuses (42501) changes to the columns named in the
-- trigger's arguments unless the caller is trusted. Keeps server-owned columns
-- (owners, counters, media state) out of reach of row owners who may update the row.
create function public.protect_columns() returns trigger
  language plpgsql
  set search_path = ''
as $$
declare
  new_row jsonb;
  old_row jsonb;
  col text;
begin
  if public.is_trusted_caller() then
    return new;
  end if;
  new_row := to_jsonb(new);
  old_row := to_jsonb(old);
  foreach col in array tg_argv loop
    if new_row -> col is distinct from old_row -> col then
      raise exception '%.% cannot be changed', tg_table_name, col using errcode = '42501';
    end if;
  end loop;
  return new;
end
$$;

-- Categories -------------------------------------------------------------------------

create table public.categories (
  id text primary key check (id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text not null unique,
  position smallint not null unique,
  created_at timestamptz not null default now()
);

comment on table public.categories is
  'The fixed content categories of docs/product.md, Data, plus ''other'' (the default). Written only by migrations.';

insert into public.categories (id, name, position) values
  ('natural-sciences-physics', 'Natural Sciences - Physics', 1),
  ('natural-sciences-chemistry', 'Natural Sciences - Chemistry', 2),
  ('natural-sciences-biology', 'Natural Sciences - Biology', 3),
  ('natural-sciences-earth-environmental-sciences', 'Natural Sciences - Earth & Environmental Sciences', 4),
  ('applied-sciences-engineering', 'Applied Sciences - Engineering', 5),
  ('applied-sciences-space-science-astronomy', 'Applied Sciences - Space Science & Astronomy', 6),
  ('applied-sciences-medical-biomedical-sciences', 'Applied Sciences - Medical & Biomedical Sciences', 7),
  ('applied-sciences-agricultural-food-sciences', 'Applied Sciences - Agricultural & Food Sciences', 8),
  ('applied-sciences-materials-science-nanotechnology', 'Applied Sciences - Materials Science & Nanotechnology', 9),
  ('technology-innovation', 'Technology & Innovation', 10),
  ('education-personal-development', 'Education & Personal Development', 11),
  ('business-finance', 'Business & Finance', 12),
  ('health-wellness', 'Health & Wellness', 13),
  ('arts-creativity', 'Arts & Creativity', 14),
  ('society-culture', 'Society & Culture', 15),
  ('practical-professional-skills', 'Practical & Professional Skills', 16),
  ('media', 'Media', 17),
  ('other', 'Other', 18);

alter table public.categories enable row level security;

create policy "everyone reads categories"
  on public.categories for select to anon, authenticated
  using (true);

-- Profiles ---------------------------------------------------------------------------

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username text not null check (username ~ '^[A-Za-z0-9._-]{3,30}$'),
  role text not null default 'user' check (role in ('user', 'creator', 'admin')),
  bio text not null default '' check (char_length(bio) <= 500),
  avatar_path text check (starts_with(avatar_path, id::text || '/')),
  is_verified boolean not null default false,
  field_of_interest text check (field_of_interest in (
    'Computer Science', 'Mathematics', 'Physics', 'Chemistry', 'Biology', 'Engineering',
    'Medicine', 'Arts', 'Humanities', 'Social Sciences', 'Business'
  )),
  concentration text check (concentration in (
    'Web Development', 'Mobile Development', 'Data Science', 'Machine Learning',
    'Artificial Intelligence', 'Cybersecurity', 'Cloud Computing', 'DevOps',
    'UX/UI Design', 'Game Development'
  )),
  interests text[] not null default '{}' check (cardinality(interests) <= 50),
  portfolio_path text check (starts_with(portfolio_path, id::text || '/')),
  portfolio_type text check (portfolio_type in ('video', 'image', 'document')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint profiles_portfolio_has_type check (portfolio_path is null or portfolio_type is not null)
);

comment on table public.profiles is
  'One row per auth user: public identity, role (user/creator/admin) and creator verification. Emails stay in auth.users.';
comment on column public.profiles.avatar_path is 'Object name in bucket avatars, under the user''s own folder.';
comment on column public.profiles.portfolio_path is 'Object name in bucket portfolios, under the user''s own folder.';

create unique index profiles_username_key on public.profiles (lower(username));
create index profiles_created_at_idx on public.profiles (created_at desc, id desc);

create trigger profiles_set_updated_at before update on public.profiles
  for each row execute function public.set_updated_at();

-- Role helpers used inside policies. SECURITY DEFINER so that they read profiles
-- without recursing into its policies; callers wrap them in (select ...) so they
-- run once per statement.
create function public.is_admin() returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select 1 from public.profiles
    where id = (select auth.uid()) and role = 'admin'
  )
$$;

create function public.is_verified_creator() returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select 1 from public.profiles
    where id = (select auth.uid()) and role = 'creator' and is_verified
  )
$$;

revoke execute on function public.is_admin() from public, anon;
revoke execute on function public.is_verified_creator() from public, anon;

comment on function public.is_admin() is 'True when the caller''s profile has role admin.';
comment on function public.is_verified_creator() is 'True when the caller is a creator an admin has verified.';

alter table public.profiles enable row level security;

create policy "everyone reads profiles"
  on public.profiles for select to anon, authenticated
  using (true);

-- No insert policy: profiles are created by public.handle_new_user() only.

create policy "users update their own profile and admins update any"
  on public.profiles for update to authenticated
  using (id = (select auth.uid()) or (select public.is_admin()))
  with check (id = (select auth.uid()) or (select public.is_admin()));

create policy "admins delete other users"
  on public.profiles for delete to authenticated
  using ((select public.is_admin()) and id <> (select auth.uid()));

-- A learner cannot promote or verify themselves: role and is_verified change only
-- by an admin or a trusted server context.
create function public.guard_profile_update() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if (new.role, new.is_verified) is distinct from (old.role, old.is_verified)
     and not public.is_trusted_caller()
     and not public.is_admin() then
    raise exception 'only an admin can change a role or a verification' using errcode = '42501';
  end if;
  return new;
end
$$;

create trigger profiles_guard_update before update on public.profiles
  for each row execute function public.guard_profile_update();

create trigger profiles_protect_columns before update on public.profiles
  for each row execute function public.protect_columns('id', 'created_at');

-- Deleting a profile deletes the account. When the delete started at auth.users
-- (its cascade reached here), the user row is already gone and this deletes nothing.
create function public.delete_auth_user() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  delete from auth.users where id = old.id;
  return null;
end
$$;

revoke execute on function public.delete_auth_user() from public, anon, authenticated;

create trigger profiles_delete_auth_user after delete on public.profiles
  for each row execute function public.delete_auth_user();

-- Creator categories -----------------------------------------------------------------

create table public.creator_categories (
  creator_id uuid not null references public.profiles (id) on delete cascade,
  category_id text not null references public.categories (id),
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (creator_id, category_id)
);

comment on table public.creator_categories is
  'Categories a creator asked to publish in; an admin approves them (all pending ones at once when the creator is verified).';

create index creator_categories_category_id_idx on public.creator_categories (category_id);

create trigger creator_categories_stamp_created_at before insert on public.creator_categories
  for each row execute function public.stamp_created_at();

create trigger creator_categories_set_updated_at before update on public.creator_categories
  for each row execute function public.set_updated_at();

alter table public.creator_categories enable row level security;

create policy "everyone reads creator categories"
  on public.creator_categories for select to anon, authenticated
  using (true);

create policy "creators request categories for themselves and admins add any"
  on public.creator_categories for insert to authenticated
  with check (
    (select public.is_admin())
    or (
      creator_id = (select auth.uid())
      and status = 'pending'
      and exists (select 1 from public.profiles p where p.id = (select auth.uid()) and p.role = 'creator')
    )
  );

create policy "admins review creator categories"
  on public.creator_categories for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

create policy "creators drop their own categories and admins drop any"
  on public.creator_categories for delete to authenticated
  using (creator_id = (select auth.uid()) or (select public.is_admin()));

-- Creator applications ---------------------------------------------------------------

create table public.creator_applications (
  id uuid primary key default gen_random_uuid(),
  creator_id uuid not null references public.profiles (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  portfolio_path text check (starts_with(portfolio_path, creator_id::text || '/')),
  portfolio_type text check (portfolio_type in ('video', 'image', 'document')),
  review_notes text check (char_length(review_notes) <= 2000),
  reviewed_by uuid references public.profiles (id) on delete set null,
  reviewed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.creator_applications is
  'A creator''s request to be verified, with their portfolio; reviewed by an admin through public.review_creator_application().';

create unique index creator_applications_one_pending_idx on public.creator_applications (creator_id)
  where status = 'pending';
create index creator_applications_creator_id_idx on public.creator_applications (creator_id, created_at desc);
create index creator_applications_reviewed_by_idx on public.creator_applications (reviewed_by);
create index creator_applications_status_idx on public.creator_applications (status, created_at);

create trigger creator_applications_stamp_created_at before insert on public.creator_applications
  for each row execute function public.stamp_created_at();

create trigger creator_applications_set_updated_at before update on public.creator_applications
  for each row execute function public.set_updated_at();

alter table public.creator_applications enable row level security;

create policy "creators read their own applications and admins read all"
  on public.creator_applications for select to authenticated
  using (creator_id = (select auth.uid()) or (select public.is_admin()));

create policy "creators apply for themselves"
  on public.creator_applications for insert to authenticated
  with check (
    creator_id = (select auth.uid())
    and status = 'pending'
    and reviewed_by is null
    and reviewed_at is null
    and review_notes is null
    and exists (select 1 from public.profiles p where p.id = (select auth.uid()) and p.role = 'creator')
  );

create policy "admins update applications"
  on public.creator_applications for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

-- The portfolio is usually uploaded after sign-up (the user folder needs the user id):
-- keep the pending application's copy in step with the profile.
create function public.sync_application_portfolio() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  update public.creator_applications
     set portfolio_path = new.portfolio_path, portfolio_type = new.portfolio_type
   where creator_id = new.id and status = 'pending';
  return null;
end
$$;

revoke execute on function public.sync_application_portfolio() from public, anon, authenticated;

create trigger profiles_sync_application_portfolio after update of portfolio_path, portfolio_type on public.profiles
  for each row
  when ((new.portfolio_path, new.portfolio_type) is distinct from (old.portfolio_path, old.portfolio_type))
  execute function public.sync_application_portfolio();

-- Approve or reject a pending application. Approval verifies the creator and
-- approves the categories they asked for.
create function public.review_creator_application(
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
    update public.creator_categories set status = 'approved'
     where creator_id = application.creator_id and status = 'pending';
  end if;

  return application;
end
$$;

revoke execute on function public.review_creator_application(uuid, boolean, text) from public, anon;

comment on function public.review_creator_application(uuid, boolean, text) is
  'Admins only (42501 otherwise). Approves (verifies the creator, approves pending categories) or rejects a pending application; P0002 when none is pending.';

-- New accounts -----------------------------------------------------------------------

-- AFTER INSERT on auth.users: creates the profile from the sign-up metadata
-- (username, role, bio, field_of_interest, concentration, interests, portfolio_path,
-- portfolio_type, creator_categories). Sign-up may ask for 'creator'; any other
-- role, 'admin' included, becomes 'user', and nobody starts verified. The username
-- is made valid and unique rather than failing the sign-up: invalid characters
-- become '_', and a taken name gets a suffix from the user id.
create function public.handle_new_user() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  new_role text := case when meta ->> 'role' = 'creator' then 'creator' else 'user' end;
  id_suffix text := left(replace(new.id::text, '-', ''), 8);
  new_username text;
begin
  new_username := left(regexp_replace(
    coalesce(nullif(btrim(meta ->> 'username'), ''), split_part(coalesce(new.email, ''), '@', 1)),
    '[^A-Za-z0-9._-]+', '_', 'g'), 30);
  if char_length(new_username) < 3 then
    new_username := 'user_' || id_suffix;
  elsif exists (select 1 from public.profiles p where lower(p.username) = lower(new_username)) then
    new_username := left(new_username, 21) || '_' || id_suffix;
  end if;

  insert into public.profiles (
    id, username, role, bio, field_of_interest, concentration, interests, portfolio_path, portfolio_type
  ) values (
    new.id,
    new_username,
    new_role,
    coalesce(meta ->> 'bio', ''),
    nullif(meta ->> 'field_of_interest', ''),
    nullif(meta ->> 'concentration', ''),
    case when jsonb_typeof(meta -> 'interests') = 'array'
      then array(select jsonb_array_elements_text(meta -> 'interests'))
      else '{}'::text[] end,
    nullif(meta ->> 'portfolio_path', ''),
    nullif(meta ->> 'portfolio_type', '')
  );

  if new_role = 'creator' then
    -- Categories may be given by id or by their exact label; unknown ones are ignored.
    if jsonb_typeof(meta -> 'creator_categories') = 'array' then
      insert into public.creator_categories (creator_id, category_id)
      select new.id, c.id
        from public.categories c
       where c.id in (select jsonb_array_elements_text(meta -> 'creator_categories'))
          or c.name in (select jsonb_array_elements_text(meta -> 'creator_categories'));
    end if;

    insert into public.creator_applications (creator_id, portfolio_path, portfolio_type)
    values (new.id, nullif(meta ->> 'portfolio_path', ''), nullif(meta ->> 'portfolio_type', ''));
  end if;

  return null;
end
$$;

revoke execute on function public.handle_new_user() from public, anon, authenticated;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

-- Admin user list --------------------------------------------------------------------

-- Emails live in auth.users, which API callers cannot read; admins page through
-- users here, newest first (keyset: pass the last row's created_at and id).
create function public.list_users(
  search text default null,
  page_size integer default 50,
  after_created timestamptz default null,
  after_id uuid default null
) returns table (
  id uuid,
  email text,
  username text,
  role text,
  is_verified boolean,
  created_at timestamptz,
  last_sign_in_at timestamptz
)
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  pattern text := '%' || replace(replace(replace(btrim(search), '\', '\\'), '%', '\%'), '_', '\_') || '%';
begin
  if not public.is_admin() then
    raise exception 'only admins list users' using errcode = '42501';
  end if;

  return query
    select p.id, u.email::text, p.username, p.role, p.is_verified, p.created_at, u.last_sign_in_at
      from public.profiles p
      join auth.users u on u.id = p.id
     where (nullif(btrim(search), '') is null or p.username ilike pattern or u.email ilike pattern)
       and (after_created is null or (p.created_at, p.id) < (after_created, coalesce(after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)))
     order by p.created_at desc, p.id desc
     limit least(greatest(coalesce(page_size, 50), 1), 200);
end
$$;

revoke execute on function public.list_users(text, integer, timestamptz, uuid) from public, anon;

comment on function public.list_users(text, integer, timestamptz, uuid) is
  'Admins only (42501 otherwise): users with their email, newest first; search matches username or email.';
