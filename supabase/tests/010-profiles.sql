-- 010 · Profiles, categories and creator categories.
-- Proves: profiles are public to read, written only by their user or an admin, never
-- inserted by API callers; nobody but an admin changes a role or a verification; only
-- admins delete users, never themselves; categories are read-only; creators ask for
-- categories only for themselves and only as pending, and only admins approve them.
begin;
select plan(63);

select tests.create_cast();

-- profiles · select -------------------------------------------------------------------

select tests.clear_authentication();
select is(
  array(select username from public.profiles order by username),
  array['admin_a', 'admin_b', 'creator_a', 'creator_b', 'creator_unverified', 'learner_a', 'learner_b'],
  'a visitor sees every profile (creator pages are public)'
);

select tests.authenticate_as('learner_a');
select is(
  (select count(*)::int from public.profiles),
  7,
  'a learner sees every profile'
);

-- profiles · insert -----------------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.profiles (id, username) values (gen_random_uuid(), 'visitor_profile') $$,
  '42501', null,
  'a visitor cannot insert a profile'
);

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ insert into public.profiles (id, username) values (gen_random_uuid(), 'second_profile') $$,
  '42501', null,
  'a learner cannot insert a profile (only the sign-up trigger does)'
);

select tests.authenticate_as('admin_a');
select throws_ok(
  $$ insert into public.profiles (id, username) values (gen_random_uuid(), 'admin_made') $$,
  '42501', null,
  'an admin cannot insert a profile either (admins create users through auth)'
);

-- profiles · update -----------------------------------------------------------------

select tests.authenticate_as('learner_a');
with u as (update public.profiles set bio = 'I like physics' where id = tests.get_supabase_uid('learner_a') returning 1)
select is(count(*)::int, 1, 'a learner updates their own bio') from u;

with u as (update public.profiles set bio = 'hacked' where id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'a learner cannot update another user''s profile') from u;

select throws_ok(
  $$ update public.profiles set role = 'admin' where id = tests.get_supabase_uid('learner_a') $$,
  '42501', null,
  'a learner cannot make themselves an admin'
);
select throws_ok(
  $$ update public.profiles set role = 'creator' where id = tests.get_supabase_uid('learner_a') $$,
  '42501', null,
  'a learner cannot make themselves a creator'
);
select throws_ok(
  $$ update public.profiles set is_verified = true where id = tests.get_supabase_uid('learner_a') $$,
  '42501', null,
  'a learner cannot set is_verified on their own profile'
);
select throws_ok(
  $$ update public.profiles set id = gen_random_uuid() where id = tests.get_supabase_uid('learner_a') $$,
  '42501', null,
  'a learner cannot change their profile id'
);
select throws_ok(
  $$ update public.profiles set created_at = '2001-01-01' where id = tests.get_supabase_uid('learner_a') $$,
  '42501', null,
  'a learner cannot change their joined date'
);

select tests.authenticate_as('creator_unverified');
select throws_ok(
  $$ update public.profiles set is_verified = true where id = tests.get_supabase_uid('creator_unverified') $$,
  '42501', null,
  'an unverified creator cannot verify themselves'
);

select tests.authenticate_as('creator_a');
with u as (update public.profiles set is_verified = false where id = tests.get_supabase_uid('creator_b') returning 1)
select is(count(*)::int, 0, 'a verified creator cannot unverify another creator') from u;

select tests.clear_authentication();
with u as (update public.profiles set bio = 'visitor was here' returning 1)
select is(count(*)::int, 0, 'a visitor cannot update any profile') from u;

select tests.authenticate_as_superuser();
select results_eq(
  $$ select username, role, is_verified, bio from public.profiles
     where username in ('learner_a', 'learner_b', 'creator_b', 'creator_unverified') order by username $$,
  $$ values ('creator_b', 'creator', true, ''), ('creator_unverified', 'creator', false, ''),
            ('learner_a', 'user', false, 'I like physics'), ('learner_b', 'user', false, '') $$,
  'after the denied updates only learner_a''s own bio changed'
);

select tests.authenticate_as('admin_a');
with u as (update public.profiles set bio = 'Edited by an admin' where id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 1, 'an admin updates another user''s profile') from u;
with u as (update public.profiles set role = 'creator' where id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 1, 'an admin changes a user''s role') from u;
with u as (update public.profiles set is_verified = true where id = tests.get_supabase_uid('creator_unverified') returning 1)
select is(count(*)::int, 1, 'an admin verifies a creator') from u;

select tests.authenticate_as_superuser();
select results_eq(
  $$ select username, role, is_verified from public.profiles
     where username in ('learner_b', 'creator_unverified') order by username $$,
  $$ values ('creator_unverified', 'creator', true), ('learner_b', 'creator', false) $$,
  'the admin''s changes are stored'
);

-- profiles · delete -----------------------------------------------------------------

select tests.clear_authentication();
with d as (delete from public.profiles where username = 'learner_b' returning 1)
select is(count(*)::int, 0, 'a visitor cannot delete a profile') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.profiles where id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'a learner cannot delete another user') from d;
with d as (delete from public.profiles where id = tests.get_supabase_uid('learner_a') returning 1)
select is(count(*)::int, 0, 'a learner cannot delete their own profile row (account deletion is an admin''s)') from d;

select tests.authenticate_as('creator_a');
with d as (delete from public.profiles where id = tests.get_supabase_uid('creator_b') returning 1)
select is(count(*)::int, 0, 'a verified creator cannot delete another user') from d;

select tests.authenticate_as('admin_a');
with d as (delete from public.profiles where id = tests.get_supabase_uid('admin_a') returning 1)
select is(count(*)::int, 0, 'an admin cannot delete their own profile row') from d;

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from public.profiles where username in ('learner_a', 'learner_b', 'creator_b', 'admin_a')),
  4,
  'after the denied deletes every profile is still there'
);

select tests.authenticate_as('admin_a');
with d as (delete from public.profiles where id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 1, 'an admin deletes another user') from d;

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from auth.users where raw_app_meta_data ->> 'test_identifier' = 'learner_b'),
  0,
  'deleting the profile deletes the account in auth.users'
);

-- categories ----------------------------------------------------------------------------

select tests.clear_authentication();
select is((select count(*)::int from public.categories), 18, 'a visitor reads the 17 categories of the spec and other');

select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.categories), 18, 'a learner reads the categories');

select tests.authenticate_as('admin_a');
select throws_ok(
  $$ insert into public.categories (id, name, position) values ('cooking', 'Cooking', 99) $$,
  '42501', null,
  'an admin cannot add a category (migrations own the list)'
);
with u as (update public.categories set name = 'Physics!' where id = 'natural-sciences-physics' returning 1)
select is(count(*)::int, 0, 'an admin cannot rename a category') from u;
with d as (delete from public.categories where id = 'media' returning 1)
select is(count(*)::int, 0, 'an admin cannot delete a category') from d;

select tests.authenticate_as('creator_a');
select throws_ok(
  $$ insert into public.categories (id, name, position) values ('cooking', 'Cooking', 99) $$,
  '42501', null,
  'a creator cannot add a category'
);
with d as (delete from public.categories where id = 'media' returning 1)
select is(count(*)::int, 0, 'a creator cannot delete a category') from d;

select tests.authenticate_as_superuser();
select is(
  (select name from public.categories where id = 'natural-sciences-physics'),
  'Natural Sciences - Physics',
  'the categories are unchanged'
);

-- creator_categories · select --------------------------------------------------------

select tests.clear_authentication();
select is(
  array(select category_id || ':' || status from public.creator_categories
        where creator_id = tests.get_supabase_uid('creator_a') order by category_id),
  array['media:pending', 'natural-sciences-chemistry:approved', 'natural-sciences-physics:approved'],
  'a visitor sees a creator''s categories and their status'
);

select tests.authenticate_as('learner_a');
select is(
  (select count(*)::int from public.creator_categories),
  5,
  'a learner sees every creator''s categories'
);

-- creator_categories · insert --------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.creator_categories (creator_id, category_id)
     values (tests.get_supabase_uid('creator_a'), 'arts-creativity') $$,
  '42501', null,
  'a visitor cannot add a creator category'
);

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ insert into public.creator_categories (creator_id, category_id)
     values (tests.get_supabase_uid('learner_a'), 'arts-creativity') $$,
  '42501', null,
  'a learner cannot ask for a creator category'
);

select tests.authenticate_as('creator_unverified');
select lives_ok(
  $$ insert into public.creator_categories (creator_id, category_id)
     values (tests.get_supabase_uid('creator_unverified'), 'arts-creativity') $$,
  'an unverified creator asks for another category for themselves'
);
select throws_ok(
  $$ insert into public.creator_categories (creator_id, category_id, status)
     values (tests.get_supabase_uid('creator_unverified'), 'media', 'approved') $$,
  '42501', null,
  'an unverified creator cannot insert an approved category'
);

select tests.authenticate_as('creator_a');
select throws_ok(
  $$ insert into public.creator_categories (creator_id, category_id, status)
     values (tests.get_supabase_uid('creator_a'), 'business-finance', 'approved') $$,
  '42501', null,
  'a verified creator cannot approve a new category for themselves'
);
select throws_ok(
  $$ insert into public.creator_categories (creator_id, category_id)
     values (tests.get_supabase_uid('creator_b'), 'business-finance') $$,
  '42501', null,
  'a verified creator cannot add a category to another creator'
);
select lives_ok(
  $$ insert into public.creator_categories (creator_id, category_id)
     values (tests.get_supabase_uid('creator_a'), 'business-finance') $$,
  'a verified creator asks for a new category, pending'
);

select tests.authenticate_as('admin_a');
select lives_ok(
  $$ insert into public.creator_categories (creator_id, category_id, status)
     values (tests.get_supabase_uid('creator_b'), 'health-wellness', 'approved') $$,
  'an admin adds an approved category to a creator'
);

select tests.authenticate_as_superuser();
select is(
  array(select c.category_id || ':' || c.status from public.creator_categories c
        where c.category_id in ('arts-creativity', 'business-finance', 'health-wellness', 'media')
        order by 1),
  array['arts-creativity:pending', 'business-finance:pending', 'health-wellness:approved', 'media:pending'],
  'only the allowed category requests were stored, with the status they may have'
);

-- creator_categories · update --------------------------------------------------------

select tests.authenticate_as('creator_a');
with u as (update public.creator_categories set status = 'approved'
           where creator_id = tests.get_supabase_uid('creator_a') and category_id = 'media' returning 1)
select is(count(*)::int, 0, 'a creator cannot approve their own pending category') from u;

select tests.authenticate_as('creator_unverified');
with u as (update public.creator_categories set status = 'approved'
           where creator_id = tests.get_supabase_uid('creator_unverified') returning 1)
select is(count(*)::int, 0, 'an unverified creator cannot approve their categories') from u;

select tests.authenticate_as('learner_a');
with u as (update public.creator_categories set status = 'rejected' returning 1)
select is(count(*)::int, 0, 'a learner cannot change anyone''s categories') from u;

select tests.clear_authentication();
with u as (update public.creator_categories set status = 'rejected' returning 1)
select is(count(*)::int, 0, 'a visitor cannot change anyone''s categories') from u;

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from public.creator_categories where status = 'approved'),
  4,
  'after the denied updates the approved categories are the same four'
);

select tests.authenticate_as('admin_a');
with u as (update public.creator_categories set status = 'approved'
           where creator_id = tests.get_supabase_uid('creator_a') and category_id = 'media' returning 1)
select is(count(*)::int, 1, 'an admin approves a creator''s pending category') from u;

-- creator_categories · delete --------------------------------------------------------

select tests.clear_authentication();
with d as (delete from public.creator_categories returning 1)
select is(count(*)::int, 0, 'a visitor cannot drop creator categories') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.creator_categories returning 1)
select is(count(*)::int, 0, 'a learner cannot drop creator categories') from d;

select tests.authenticate_as('creator_b');
with d as (delete from public.creator_categories where creator_id = tests.get_supabase_uid('creator_a') returning 1)
select is(count(*)::int, 0, 'a creator cannot drop another creator''s categories') from d;
with d as (delete from public.creator_categories
           where creator_id = tests.get_supabase_uid('creator_b') and category_id = 'health-wellness' returning 1)
select is(count(*)::int, 1, 'a creator drops one of their own categories') from d;

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from public.creator_categories where creator_id = tests.get_supabase_uid('creator_a')),
  4,
  'creator_a''s categories are all still there'
);

select tests.authenticate_as('admin_a');
with d as (delete from public.creator_categories
           where creator_id = tests.get_supabase_uid('creator_a') and category_id = 'business-finance' returning 1)
select is(count(*)::int, 1, 'an admin drops a creator''s category') from d;

-- Same answers for the second admin: admin rights are not tied to one account.
select tests.authenticate_as('admin_b');
with u as (update public.profiles set bio = 'Second admin' where id = tests.get_supabase_uid('learner_a') returning 1)
select is(count(*)::int, 1, 'the second admin also manages users') from u;
with d as (delete from public.profiles where id = tests.get_supabase_uid('admin_b') returning 1)
select is(count(*)::int, 0, 'the second admin cannot delete their own profile row either') from d;
with d as (delete from public.profiles where id = tests.get_supabase_uid('admin_a') returning 1)
select is(count(*)::int, 1, 'an admin may delete another admin') from d;

select tests.authenticate_as_superuser();
select is(
  array(select username from public.profiles where role = 'admin' order by username),
  array['admin_b'],
  'one admin is left'
);

select * from finish();
rollback;
