-- 110 · Privilege escalation.
-- Proves: rights come from the database (profiles.role, profiles.is_verified), never
-- from anything a user can write or a token can claim: `user_metadata.role = 'admin'`
-- at sign-up grants nothing, nor does a forged `role` claim; nobody promotes or
-- verifies themselves or writes as someone else; a demoted admin, an unverified
-- creator and a deleted user lose their rights at once, with the same old token;
-- internal functions and auth tables are out of reach.
begin;
select plan(45);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true, 'natural-sciences-physics');
select tests.create_video('creator_a', 'A private', false, 'natural-sciences-physics');
insert into public.feedback (user_id, liked, usage, recommendations)
values (tests.get_supabase_uid('learner_a'), true, 'Often', 'Keep going');
insert into public.reports (reporter_id, content_type, content_id, reason, details)
values (tests.get_supabase_uid('learner_a'), 'video', tests.video_id('A public'), 'spam', 'A: report');

-- Sign-up metadata grants nothing ------------------------------------------------------

select tests.create_supabase_user('self_made_admin', metadata => '{"role":"admin","is_verified":true}');
select tests.create_supabase_user('self_verified_creator',
  metadata => '{"role":"creator","is_verified":true,"creator_categories":["natural-sciences-physics"]}');

select results_eq(
  $$ select username, role, is_verified from public.profiles
     where username in ('self_made_admin', 'self_verified_creator') order by username $$,
  $$ values ('self_made_admin', 'user', false), ('self_verified_creator', 'creator', false) $$,
  'sign-up metadata asking for admin or verification gives a plain user and an unverified creator'
);

select tests.authenticate_as('self_made_admin');
select is(auth.jwt() -> 'user_metadata' ->> 'role', 'admin', 'the token really carries role admin in user_metadata');
select is(public.is_admin(), false, 'user_metadata.role = admin does not make an admin');
select is((select count(*)::int from public.feedback), 0, 'user_metadata.role = admin does not read feedback');
select is((select count(*)::int from public.reports), 0, 'user_metadata.role = admin does not read reports');
select is(
  (select count(*)::int from public.videos where id = tests.video_id('A private')),
  0,
  'user_metadata.role = admin does not see private videos'
);
select throws_ok($$ select * from public.list_users() $$, '42501', null, 'user_metadata.role = admin does not list users');
with d as (delete from public.videos where id = tests.video_id('A public') returning 1)
select is(count(*)::int, 0, 'user_metadata.role = admin does not delete videos') from d;
with u as (update public.profiles set bio = 'pwned' where id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'user_metadata.role = admin does not edit other users') from u;

select tests.authenticate_as('self_verified_creator');
select throws_ok(
  $$ insert into public.videos (title, category_id, source_path)
     values ('Self verified', 'natural-sciences-physics', tests.get_supabase_uid('self_verified_creator') || '/videos/s.mp4') $$,
  '42501', null,
  'user_metadata.is_verified = true does not let a creator publish'
);

-- Forged claims grant nothing ---------------------------------------------------------

-- A token whose role claim says service_role (and admin in both metadata objects)
-- while the connection acts as authenticated: what a forged claim would look like.
select tests.authenticate_as('creator_a');
select set_config('request.jwt.claims', jsonb_build_object(
  'sub', tests.get_supabase_uid('creator_a'), 'role', 'service_role',
  'app_metadata', jsonb_build_object('role', 'admin'), 'user_metadata', jsonb_build_object('role', 'admin'))::text, true);
select is(auth.role(), 'service_role', 'the forged token claims the service role');
select is((select count(*)::int from public.feedback), 0, 'a forged service_role claim does not read feedback');
select throws_ok(
  $$ update public.videos set like_count = 1000 where id = tests.video_id('A public') $$,
  '42501', null,
  'a forged claim does not make a creator a trusted server (their counters stay closed)'
);
select throws_ok($$ select * from public.media_jobs $$, '42501', null, 'a forged claim does not open the media queue');

-- Nobody promotes, verifies or impersonates themselves -----------------------------------

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ update public.profiles set role = 'admin' where id = auth.uid() $$,
  '42501', null,
  'a learner cannot set their role to admin'
);
select throws_ok(
  $$ update public.profiles set is_verified = true where id = auth.uid() $$,
  '42501', null,
  'a learner cannot set is_verified'
);
select throws_ok(
  format($$ update public.profiles set avatar_path = %L where id = auth.uid() $$, tests.get_supabase_uid('learner_b') || '/me.png'),
  '23514', null,
  'a learner cannot point their avatar at another user''s file'
);
select throws_ok(
  $$ insert into public.videos (creator_id, title, external_url)
     values (tests.get_supabase_uid('creator_a'), 'Planted', 'https://youtu.be/planted') $$,
  '42501', null,
  'a learner cannot create a video in a creator''s name'
);
with u as (update public.videos set creator_id = auth.uid() where id = tests.video_id('A public') returning 1)
select is(count(*)::int, 0, 'a learner cannot take over a creator''s video') from u;
select throws_ok(
  $$ insert into public.creator_applications (creator_id) values (auth.uid()) $$,
  '42501', null,
  'a learner cannot apply as a creator by inserting an application'
);

select tests.authenticate_as('creator_unverified');
select throws_ok(
  $$ insert into public.creator_categories (creator_id, category_id, status) values (auth.uid(), 'media', 'approved') $$,
  '42501', null,
  'an unverified creator cannot approve a category for themselves'
);
with u as (update public.creator_applications set status = 'approved' where creator_id = auth.uid() returning 1)
select is(count(*)::int, 0, 'an unverified creator cannot approve their own application') from u;

select tests.authenticate_as('creator_a');
select throws_ok(
  $$ update public.videos set creator_id = tests.get_supabase_uid('creator_b') where id = tests.video_id('A public') $$,
  '42501', null,
  'a creator cannot move a video to another owner'
);
select throws_ok(
  $$ update public.videos set category_id = 'media' where id = tests.video_id('A public') $$,
  '42501', null,
  'a creator cannot move a video to a category not approved while they have approved ones'
);

select tests.authenticate_as_superuser();
select results_eq(
  $$ select p.username, p.role, p.is_verified from public.profiles p
     where p.username in ('learner_a', 'creator_unverified') order by 1 $$,
  $$ values ('creator_unverified', 'creator', false), ('learner_a', 'user', false) $$,
  'after every attempt the learner and the unverified creator are what they were'
);
select results_eq(
  $$ select creator_id, category_id from public.videos where title = 'A public' $$,
  format('values (%L::uuid, %L)', tests.get_supabase_uid('creator_a'), 'natural-sciences-physics'),
  'and the video keeps its owner and category'
);

-- A demoted admin loses their rights at once -------------------------------------------

select tests.authenticate_as('admin_b');
select is((select count(*)::int from public.feedback), 1, 'an admin reads feedback');

select tests.authenticate_as('admin_a');
with u as (update public.profiles set role = 'user' where id = tests.get_supabase_uid('admin_b') returning 1)
select is(count(*)::int, 1, 'an admin demotes another admin') from u;

-- The same claims (the demoted admin's unexpired token) as before.
select tests.authenticate_as('admin_b');
select is((select count(*)::int from public.feedback), 0, 'the demoted admin no longer reads feedback');
select throws_ok($$ select * from public.list_users() $$, '42501', null, 'the demoted admin no longer lists users');
with d as (delete from public.videos where id = tests.video_id('A public') returning 1)
select is(count(*)::int, 0, 'the demoted admin no longer deletes others'' videos') from d;
with u as (update public.reports set status = 'dismissed' returning 1)
select is(count(*)::int, 0, 'the demoted admin no longer handles reports') from u;
select throws_ok(
  format('select public.review_creator_application(%L, true)',
         (select id from public.creator_applications where creator_id = tests.get_supabase_uid('creator_unverified'))),
  '42501', null,
  'the demoted admin no longer reviews creators'
);
select throws_ok(
  $$ update public.profiles set role = 'admin' where id = auth.uid() $$,
  '42501', null,
  'the demoted admin cannot restore their own role'
);

-- An unverified (or un-verified) creator loses upload rights at once ---------------------

select tests.authenticate_as('admin_a');
with u as (update public.profiles set is_verified = false where id = tests.get_supabase_uid('creator_b') returning 1)
select is(count(*)::int, 1, 'an admin withdraws a creator''s verification') from u;

select tests.authenticate_as('creator_b');
select throws_ok(
  $$ insert into public.videos (title, category_id, external_url)
     values ('After withdrawal', 'natural-sciences-biology', 'https://youtu.be/after') $$,
  '42501', null,
  'a creator whose verification was withdrawn can no longer publish'
);

-- A deleted admin's token grants nothing -----------------------------------------------

select tests.authenticate_as_superuser();
select tests.create_supabase_user('doomed_admin');
select tests.make_admin('doomed_admin');
select set_config('tests.deleted_user', tests.get_supabase_uid('doomed_admin')::text, true);
select tests.authenticate_as('doomed_admin');
select is((select count(*)::int from public.feedback), 1, 'a new admin reads feedback');

select tests.authenticate_as('admin_a');
with d as (delete from public.profiles where id = current_setting('tests.deleted_user')::uuid returning 1)
select is(count(*)::int, 1, 'an admin deletes the new admin''s account') from d;

-- The deleted admin's unexpired token: the same claims, no user behind them.
select set_config('role', 'authenticated', true);
select set_config('request.jwt.claims',
  jsonb_build_object('sub', current_setting('tests.deleted_user'), 'role', 'authenticated')::text, true);
select is((select count(*)::int from public.feedback), 0, 'a deleted admin''s token no longer reads feedback');
select throws_ok($$ select * from public.list_users() $$, '42501', null, 'a deleted admin''s token no longer lists users');
select throws_ok(
  $$ insert into public.comments (video_id, body) values (tests.video_id('A public'), 'From beyond') $$,
  '23503', null,
  'a deleted user''s token cannot comment (no profile, no row)'
);

-- Internals and auth tables are out of reach ----------------------------------------------

select tests.authenticate_as('learner_a');
select throws_ok($$ select email from auth.users $$, '42501', null, 'a learner cannot read auth.users');
select throws_ok(
  $$ insert into auth.users (id, email) values (gen_random_uuid(), 'x@lumen.test') $$,
  '42501', null,
  'a learner cannot create accounts behind auth''s back'
);
select throws_ok($$ select public.handle_new_user() $$, '42501', null, 'a learner cannot call the sign-up trigger function');

select tests.clear_authentication();
select throws_ok($$ select public.is_admin() $$, '42501', null, 'a visitor cannot call role helpers');

select tests.authenticate_as_superuser();
select * from finish();
rollback;
