-- 000 · Test helpers, installed in schema `tests` (committed: every later file uses
-- them). In the spirit of basejump's supabase-test-helpers, our own code:
--   tests.create_supabase_user(identifier, email, metadata)  a user in auth.users
--       (the sign-up trigger creates the profile from the metadata), returns its id
--   tests.get_supabase_uid(identifier)                       the id of a test user
--   tests.authenticate_as(identifier)                        act as that user
--   tests.authenticate_as_service_role()                     act as the service role
--   tests.clear_authentication()                             act as a visitor (anon)
--   tests.authenticate_as_superuser()                        back to the test runner
--   tests.make_admin(identifier)                             an admin, as the operator makes one
--   tests.make_verified_creator(identifier, categories)      an admin's creator review
--   tests.create_cast()                                      the identities every file uses
--   tests.create_video(creator, title, is_public, category)  a ready video, as the worker leaves it
--   tests.video_id(title) / quote_id(body) / comment_id(body) / report_id(details)
--                                                            ids by label, whatever RLS hides
-- Acting is transaction-local (set_config(..., true)), like PostgREST's `set local`:
-- every test file runs in a transaction it rolls back, so nothing leaks between files.
--
-- The helpers are installed in a transaction of their own that commits, and the
-- checks below run in one that rolls back. Explicit on purpose: a client that sends
-- the file as one multi-statement query would otherwise pull the helpers into the
-- checks' transaction and roll them back too.
begin;

create schema if not exists tests;
grant usage on schema tests to anon, authenticated, service_role;

-- Users -----------------------------------------------------------------------------

-- Inserts the row GoTrue writes on sign-up. The identifier is kept in app_metadata
-- (which only the server writes), never in user_metadata: tests may put anything there.
create or replace function tests.create_supabase_user(
  identifier text,
  email text default null,
  metadata jsonb default '{}'::jsonb
) returns uuid
  language plpgsql
  set search_path = ''
as $$
declare
  user_id uuid := gen_random_uuid();
begin
  insert into auth.users (
    instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
    raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user, is_anonymous
  ) values (
    '00000000-0000-0000-0000-000000000000', user_id, 'authenticated', 'authenticated',
    coalesce(create_supabase_user.email, identifier || '@lumen.test'), '', now(),
    jsonb_build_object('provider', 'email', 'providers', jsonb_build_array('email'), 'test_identifier', identifier),
    jsonb_build_object('username', identifier) || coalesce(metadata, '{}'::jsonb),
    now(), now(), false, false
  );
  return user_id;
end
$$;

-- SECURITY DEFINER: helpers run it while acting as anon or authenticated, who cannot
-- read auth.users.
create or replace function tests.get_supabase_uid(identifier text) returns uuid
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  user_id uuid;
begin
  select u.id into user_id from auth.users u where u.raw_app_meta_data ->> 'test_identifier' = identifier;
  if user_id is null then
    raise exception 'no test user %', identifier;
  end if;
  return user_id;
end
$$;

create or replace function tests.get_supabase_user(identifier text) returns jsonb
  language sql stable security definer
  set search_path = ''
as $$
  select jsonb_build_object(
    'id', u.id, 'email', u.email, 'app_metadata', u.raw_app_meta_data, 'user_metadata', u.raw_user_meta_data
  )
  from auth.users u
  where u.id = tests.get_supabase_uid(identifier)
$$;

-- Acting ----------------------------------------------------------------------------

-- The claims GoTrue puts in an access token, metadata included: a policy that trusted
-- user_metadata would be fooled here exactly as in production. SECURITY INVOKER:
-- Postgres refuses SET ROLE inside a security-definer function.
create or replace function tests.authenticate_as(identifier text) returns void
  language plpgsql
  set search_path = ''
as $$
declare
  user_row jsonb := tests.get_supabase_user(identifier);
begin
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claims', jsonb_build_object(
    'sub', user_row ->> 'id',
    'role', 'authenticated',
    'aud', 'authenticated',
    'email', user_row ->> 'email',
    'app_metadata', user_row -> 'app_metadata',
    'user_metadata', user_row -> 'user_metadata',
    'aal', 'aal1',
    'is_anonymous', false
  )::text, true);
end
$$;

create or replace function tests.authenticate_as_service_role() returns void
  language plpgsql
  set search_path = ''
as $$
begin
  perform set_config('role', 'service_role', true);
  perform set_config('request.jwt.claims', '{"role":"service_role"}', true);
end
$$;

create or replace function tests.clear_authentication() returns void
  language plpgsql
  set search_path = ''
as $$
begin
  perform set_config('role', 'anon', true);
  perform set_config('request.jwt.claims', '{"role":"anon"}', true);
end
$$;

-- Back to the role that runs the tests (a superuser): for setup and for re-reading
-- rows past RLS after a denied change.
create or replace function tests.authenticate_as_superuser() returns void
  language plpgsql
  set search_path = ''
as $$
begin
  perform set_config('role', 'none', true);
  perform set_config('request.jwt.claims', '', true);
end
$$;

-- Roles, the way the app grants them ------------------------------------------------

-- The first admin is made by the operator (there is no admin above them): as the
-- database owner, directly.
create or replace function tests.make_admin(identifier text) returns void
  language plpgsql
  set search_path = ''
as $$
begin
  update public.profiles set role = 'admin' where id = tests.get_supabase_uid(identifier);
end
$$;

-- What an admin's approval does: the creator asks for the categories, then an admin
-- approves their pending application through public.review_creator_application(),
-- acting as that admin (any admin of the cast).
create or replace function tests.make_verified_creator(identifier text, categories text[]) returns void
  language plpgsql
  set search_path = ''
as $$
declare
  creator uuid := tests.get_supabase_uid(identifier);
  reviewer uuid := (select p.id from public.profiles p where p.role = 'admin' order by p.created_at, p.id limit 1);
  application uuid;
begin
  if reviewer is null then
    raise exception 'make_verified_creator(%): make an admin first', identifier;
  end if;
  insert into public.creator_categories (creator_id, category_id)
  select creator, c from unnest(categories) as c
  on conflict do nothing;
  select a.id into application from public.creator_applications a
   where a.creator_id = creator and a.status = 'pending';
  if application is null then
    insert into public.creator_applications (creator_id) values (creator) returning id into application;
  end if;
  perform set_config('request.jwt.claims', jsonb_build_object('sub', reviewer, 'role', 'authenticated')::text, true);
  perform public.review_creator_application(application, true, 'approved by the test helpers');
  perform set_config('request.jwt.claims', '', true);
end
$$;

-- The cast: two users per role, so that a policy that lets everyone through
-- (`using (true)`) shows up as a failure for the second one.
--   learner_a, learner_b        role user
--   creator_unverified          role creator, asked for physics, not yet reviewed
--   creator_a                   verified: physics and chemistry approved; later asked for
--                               media (pending, so not usable while approved ones exist)
--   creator_b                   verified: biology approved
--   admin_a, admin_b            role admin
create or replace function tests.create_cast() returns void
  language plpgsql
  set search_path = ''
as $$
begin
  perform tests.create_supabase_user('learner_a', metadata => '{"role":"user"}');
  perform tests.create_supabase_user('learner_b', metadata => '{"role":"user"}');
  perform tests.create_supabase_user('creator_unverified',
    metadata => '{"role":"creator","creator_categories":["natural-sciences-physics"]}');
  perform tests.create_supabase_user('creator_a',
    metadata => '{"role":"creator","creator_categories":["natural-sciences-physics","natural-sciences-chemistry"]}');
  perform tests.create_supabase_user('creator_b',
    metadata => '{"role":"creator","creator_categories":["natural-sciences-biology"]}');
  perform tests.create_supabase_user('admin_a', metadata => '{"role":"user"}');
  perform tests.create_supabase_user('admin_b', metadata => '{"role":"user"}');
  perform tests.make_admin('admin_a');
  perform tests.make_admin('admin_b');
  perform tests.make_verified_creator('creator_a', array['natural-sciences-physics', 'natural-sciences-chemistry']);
  perform tests.make_verified_creator('creator_b', array['natural-sciences-biology']);
  insert into public.creator_categories (creator_id, category_id)
  values (tests.get_supabase_uid('creator_a'), 'media');
end
$$;

-- Content ---------------------------------------------------------------------------

-- A ready video of a cast member, written as the media worker leaves it (the test
-- runner is trusted, like the worker). Its title is its label for tests.video_id().
create or replace function tests.create_video(
  creator text,
  title text,
  is_public boolean default true,
  category text default 'other',
  type text default 'video'
) returns uuid
  language plpgsql
  set search_path = ''
as $$
declare
  owner_id uuid := tests.get_supabase_uid(creator);
  video_id uuid;
begin
  insert into public.videos (creator_id, title, category_id, type, is_public, status, source_path, duration_seconds)
  values (owner_id, create_video.title, category, create_video.type, create_video.is_public, 'ready',
          owner_id || '/videos/' || md5(create_video.title) || '.mp4', case when create_video.type = 'spark' then 30 else 300 end)
  returning id into video_id;
  return video_id;
end
$$;

-- Rows by label -----------------------------------------------------------------------

-- Test files name their rows by a unique label (a title, a body, report details) and
-- look ids up here past RLS, so that a denied statement aims at a row that really
-- exists; a typo raises instead of quietly matching nothing.
create or replace function tests.row_id(tbl regclass, label_column text, label text) returns uuid
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  ids uuid[];
begin
  execute format('select array_agg(id) from %s where %I = $1', tbl, label_column) into ids using label;
  if cardinality(ids) is distinct from 1 then
    raise exception 'expected one row in % with % = %, found %', tbl, label_column, label, coalesce(cardinality(ids), 0);
  end if;
  return ids[1];
end
$$;

create or replace function tests.video_id(title text) returns uuid
  language sql stable
  set search_path = ''
as $$ select tests.row_id('public.videos', 'title', title) $$;

create or replace function tests.quote_id(body text) returns uuid
  language sql stable
  set search_path = ''
as $$ select tests.row_id('public.quotes', 'body', body) $$;

create or replace function tests.comment_id(body text) returns uuid
  language sql stable
  set search_path = ''
as $$ select tests.row_id('public.comments', 'body', body) $$;

create or replace function tests.report_id(details text) returns uuid
  language sql stable
  set search_path = ''
as $$ select tests.row_id('public.reports', 'details', details) $$;

-- Who may call what: everything here is test-only, but the setup helpers still run
-- only as the test runner, never as an acting API role.
revoke all on all functions in schema tests from public;
grant execute on function
  tests.get_supabase_uid(text),
  tests.authenticate_as(text),
  tests.authenticate_as_service_role(),
  tests.clear_authentication(),
  tests.authenticate_as_superuser(),
  tests.row_id(regclass, text, text),
  tests.video_id(text),
  tests.quote_id(text),
  tests.comment_id(text),
  tests.report_id(text)
  to anon, authenticated, service_role;
-- authenticate_as (which must stay SECURITY INVOKER) reads the user through this one.
grant execute on function tests.get_supabase_user(text) to anon, authenticated, service_role;

commit;

-- The helpers work ------------------------------------------------------------------

begin;
select plan(12);

select tests.create_cast();

select is(
  (select count(*)::int from public.profiles
    where id in (select tests.get_supabase_uid(i) from unnest(array[
      'learner_a', 'learner_b', 'creator_unverified', 'creator_a', 'creator_b', 'admin_a', 'admin_b']) as i)),
  7,
  'create_cast creates seven users, each with a profile'
);

select results_eq(
  $$ select p.role, p.is_verified from public.profiles p
     where p.id in (tests.get_supabase_uid('admin_a'), tests.get_supabase_uid('creator_a'),
                    tests.get_supabase_uid('creator_unverified'), tests.get_supabase_uid('learner_a'))
     order by p.username $$,
  $$ values ('admin', false), ('creator', true), ('creator', false), ('user', false) $$,
  'the cast has admins, verified and unverified creators and learners'
);

select results_eq(
  $$ select category_id, status from public.creator_categories
     where creator_id = tests.get_supabase_uid('creator_a') order by category_id $$,
  $$ values ('media', 'pending'), ('natural-sciences-chemistry', 'approved'), ('natural-sciences-physics', 'approved') $$,
  'make_verified_creator approves the requested categories through the admin review'
);

select tests.authenticate_as('learner_a');
select is(current_user::text, 'authenticated', 'authenticate_as switches to the authenticated role');
select is(auth.uid(), tests.get_supabase_uid('learner_a'), 'authenticate_as sets the user id auth.uid() reads');
select is(auth.jwt() ->> 'email', 'learner_a@lumen.test', 'the claims carry the email');

select tests.authenticate_as('learner_b');
select is(auth.uid(), tests.get_supabase_uid('learner_b'), 'one acting user can switch to another');

select tests.clear_authentication();
select is(current_user::text, 'anon', 'clear_authentication acts as a visitor');
select is(auth.uid(), null, 'a visitor has no user id');

select tests.authenticate_as_service_role();
select is(current_user::text, 'service_role', 'authenticate_as_service_role acts as the service role');

select tests.authenticate_as_superuser();
select ok((select rolsuper from pg_catalog.pg_roles where rolname = current_user), 'authenticate_as_superuser returns to the test runner');

select throws_ok(
  $$ select tests.get_supabase_uid('nobody') $$,
  'P0001', 'no test user nobody',
  'an unknown identifier is an error, not a null id'
);

select * from finish();
rollback;
