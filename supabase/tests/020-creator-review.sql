-- 020 · Creator applications, the admin review and the admin user list.
-- Proves: a creator sees and files only their own application; only admins read all
-- applications, review them (public.review_creator_application) and list users with
-- their emails (public.list_users); approval verifies the creator and approves the
-- categories they asked for; rejection verifies nothing; nobody deletes applications.
begin;
select plan(41);

select tests.create_cast();
-- creator_unverified's application is pending (filed by the sign-up trigger);
-- creator_a's and creator_b's were approved by tests.make_verified_creator.

-- creator_applications · select ------------------------------------------------------

select tests.clear_authentication();
select is((select count(*)::int from public.creator_applications), 0, 'a visitor sees no application');

select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.creator_applications), 0, 'a learner sees no application');

select tests.authenticate_as('creator_unverified');
select is(
  array(select status from public.creator_applications where creator_id = tests.get_supabase_uid('creator_unverified')),
  array['pending'],
  'an unverified creator sees their own pending application'
);
select is((select count(*)::int from public.creator_applications), 1, 'an unverified creator sees only their own application');

select tests.authenticate_as('creator_a');
select is(
  array(select creator_id from public.creator_applications),
  array[tests.get_supabase_uid('creator_a')],
  'a verified creator sees only their own application'
);

select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.creator_applications), 3, 'an admin sees every application');

-- creator_applications · insert ------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.creator_applications (creator_id) values (tests.get_supabase_uid('creator_a')) $$,
  '42501', null,
  'a visitor cannot file an application'
);

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ insert into public.creator_applications (creator_id) values (tests.get_supabase_uid('learner_a')) $$,
  '42501', null,
  'a learner cannot file a creator application'
);

select tests.authenticate_as('creator_a');
select throws_ok(
  $$ insert into public.creator_applications (creator_id) values (tests.get_supabase_uid('creator_b')) $$,
  '42501', null,
  'a creator cannot file an application for another creator'
);
select throws_ok(
  $$ insert into public.creator_applications (creator_id, status) values (tests.get_supabase_uid('creator_a'), 'approved') $$,
  '42501', null,
  'a creator cannot file an application that is already approved'
);
select throws_ok(
  format($$ insert into public.creator_applications (creator_id, reviewed_by, reviewed_at)
            values (%L, %L, now()) $$, tests.get_supabase_uid('creator_a'), tests.get_supabase_uid('admin_a')),
  '42501', null,
  'a creator cannot file an application that claims a reviewer'
);

select tests.authenticate_as('creator_unverified');
select throws_ok(
  $$ insert into public.creator_applications (creator_id) values (tests.get_supabase_uid('creator_unverified')) $$,
  '23505', null,
  'a creator has at most one pending application'
);

select tests.authenticate_as('creator_b');
select lives_ok(
  $$ insert into public.creator_applications (creator_id, portfolio_path, portfolio_type)
     values (tests.get_supabase_uid('creator_b'), tests.get_supabase_uid('creator_b') || '/cv.pdf', 'document') $$,
  'a creator files a new application for themselves'
);

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from public.creator_applications where status = 'pending'),
  2,
  'only the allowed application was added'
);

-- creator_applications · update ------------------------------------------------------

select tests.authenticate_as('creator_unverified');
with u as (update public.creator_applications set status = 'approved' returning 1)
select is(count(*)::int, 0, 'an unverified creator cannot approve their own application') from u;

select tests.authenticate_as('creator_a');
with u as (update public.creator_applications set review_notes = 'looks great' returning 1)
select is(count(*)::int, 0, 'a verified creator cannot edit applications') from u;

select tests.authenticate_as('learner_a');
with u as (update public.creator_applications set status = 'rejected' returning 1)
select is(count(*)::int, 0, 'a learner cannot change applications') from u;

select tests.clear_authentication();
with u as (update public.creator_applications set status = 'rejected' returning 1)
select is(count(*)::int, 0, 'a visitor cannot change applications') from u;

select tests.authenticate_as_superuser();
select results_eq(
  $$ select a.status, p.is_verified from public.creator_applications a join public.profiles p on p.id = a.creator_id
     where p.username = 'creator_unverified' $$,
  $$ values ('pending', false) $$,
  'after the denied updates the application is still pending and the creator unverified'
);

select tests.authenticate_as('admin_a');
with u as (update public.creator_applications set review_notes = 'portfolio checked'
           where creator_id = tests.get_supabase_uid('creator_unverified') returning 1)
select is(count(*)::int, 1, 'an admin annotates an application') from u;

-- creator_applications · delete ------------------------------------------------------

select tests.authenticate_as('creator_unverified');
with d as (delete from public.creator_applications returning 1)
select is(count(*)::int, 0, 'a creator cannot delete their application') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.creator_applications returning 1)
select is(count(*)::int, 0, 'a learner cannot delete applications') from d;

select tests.authenticate_as('admin_a');
with d as (delete from public.creator_applications returning 1)
select is(count(*)::int, 0, 'even an admin cannot delete applications (they are the review record)') from d;

select tests.authenticate_as_superuser();
select is((select count(*)::int from public.creator_applications), 4, 'every application is still there');

-- review_creator_application ----------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  format('select public.review_creator_application(%L, true)',
         (select id from public.creator_applications where creator_id = tests.get_supabase_uid('creator_unverified'))),
  '42501', null,
  'a visitor cannot review an application'
);

select tests.authenticate_as('creator_unverified');
select throws_ok(
  format('select public.review_creator_application(%L, true)',
         (select id from public.creator_applications where creator_id = tests.get_supabase_uid('creator_unverified'))),
  '42501', 'only admins review creator applications',
  'an unverified creator cannot approve their own application'
);

select tests.authenticate_as('creator_a');
select throws_ok(
  format('select public.review_creator_application(%L, true)',
         (select id from public.creator_applications where creator_id = tests.get_supabase_uid('creator_a'))),
  '42501', 'only admins review creator applications',
  'a verified creator cannot review applications'
);

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ select public.review_creator_application(gen_random_uuid(), true) $$,
  '42501', 'only admins review creator applications',
  'a learner cannot review applications'
);

select tests.authenticate_as_superuser();
select is(
  (select is_verified from public.profiles where username = 'creator_unverified'),
  false,
  'after the refused reviews the creator is still unverified'
);

-- The application id, fetched before acting: creators cannot see others' applications.
select set_config('tests.pending_application',
  (select id::text from public.creator_applications
    where creator_id = tests.get_supabase_uid('creator_unverified') and status = 'pending'), true);

select tests.authenticate_as('admin_a');
select is(
  (select status from public.review_creator_application(current_setting('tests.pending_application')::uuid, true, 'Welcome')),
  'approved',
  'an admin approves a pending application'
);

select tests.authenticate_as_superuser();
select results_eq(
  $$ select p.is_verified, a.reviewed_by, a.review_notes
     from public.profiles p join public.creator_applications a on a.creator_id = p.id
     where p.username = 'creator_unverified' $$,
  format('values (true, %L::uuid, %L)', tests.get_supabase_uid('admin_a'), 'Welcome'),
  'approval verifies the creator and records the reviewer'
);
select is(
  array(select status from public.creator_categories where creator_id = tests.get_supabase_uid('creator_unverified')),
  array['approved'],
  'approval approves the categories the creator asked for'
);

select tests.authenticate_as('admin_a');
select throws_ok(
  format('select public.review_creator_application(%L, false)', current_setting('tests.pending_application')),
  'P0002', null,
  'an application is reviewed once'
);

select set_config('tests.second_application',
  (select id::text from public.creator_applications
    where creator_id = tests.get_supabase_uid('creator_b') and status = 'pending'), true);
select is(
  (select status from public.review_creator_application(current_setting('tests.second_application')::uuid, false, 'Not yet')),
  'rejected',
  'an admin rejects a pending application'
);

select tests.authenticate_as_superuser();
select results_eq(
  $$ select a.status, p.is_verified from public.creator_applications a join public.profiles p on p.id = a.creator_id
     where a.id = current_setting('tests.second_application')::uuid $$,
  $$ values ('rejected', true) $$,
  'a rejection changes no verification (creator_b stays as they were)'
);

-- list_users ---------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok($$ select * from public.list_users() $$, '42501', null, 'a visitor cannot list users');

select tests.authenticate_as('learner_a');
select throws_ok($$ select * from public.list_users() $$, '42501', 'only admins list users', 'a learner cannot list users');

select tests.authenticate_as('creator_a');
select throws_ok($$ select * from public.list_users() $$, '42501', 'only admins list users', 'a verified creator cannot list users');

select tests.authenticate_as('admin_a');
select is(
  array(select email from public.list_users() order by email),
  array['admin_a@lumen.test', 'admin_b@lumen.test', 'creator_a@lumen.test', 'creator_b@lumen.test',
        'creator_unverified@lumen.test', 'learner_a@lumen.test', 'learner_b@lumen.test'],
  'an admin lists every user with their email'
);
select is(
  array(select username from public.list_users(search => 'learner') order by username),
  array['learner_a', 'learner_b'],
  'an admin searches users by name'
);

select tests.authenticate_as('admin_b');
select is((select count(*)::int from public.list_users()), 7, 'the second admin lists users too');

select tests.authenticate_as_superuser();
select * from finish();
rollback;
