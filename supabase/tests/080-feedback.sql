-- 080 · Feedback.
-- Proves: feedback is insert-only for users (they cannot read back, edit or delete
-- even their own); it is sent only as oneself and only when signed in; only admins
-- read it and delete it; nobody edits it.
begin;
select plan(25);

select tests.create_cast();
insert into public.feedback (user_id, liked, usage, recommendations)
values (tests.get_supabase_uid('learner_b'), true, 'Daily on the bus', 'More chemistry sparks');

-- insert ----------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.feedback (user_id, liked, usage, recommendations)
     values (tests.get_supabase_uid('learner_a'), true, 'Visitor usage', 'Visitor idea') $$,
  '42501', null,
  'a visitor cannot send feedback'
);

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.feedback (liked, usage, recommendations) values (false, 'Weekends', 'Dark mode') $$,
  'a learner sends feedback'
);
select throws_ok(
  $$ insert into public.feedback (user_id, liked, usage, recommendations)
     values (tests.get_supabase_uid('learner_b'), false, 'As B', 'Close the site') $$,
  '42501', null,
  'a learner cannot send feedback in another user''s name'
);
select throws_ok(
  $$ insert into public.feedback (liked, usage, recommendations) values (true, ' ', 'Something') $$,
  '23514', null,
  'feedback needs every field (blank usage is refused)'
);

select tests.authenticate_as('creator_a');
select lives_ok(
  $$ insert into public.feedback (liked, usage, recommendations) values (true, 'Teaching', 'Analytics') $$,
  'a creator sends feedback'
);

select tests.authenticate_as('creator_unverified');
select lives_ok(
  $$ insert into public.feedback (liked, usage, recommendations) values (true, 'Waiting', 'Faster review') $$,
  'an unverified creator sends feedback'
);

select tests.authenticate_as_superuser();
select is(
  array(select p.username from public.feedback f join public.profiles p on p.id = f.user_id order by 1),
  array['creator_a', 'creator_unverified', 'learner_a', 'learner_b'],
  'only the allowed feedback was stored, each under its sender'
);

-- select ----------------------------------------------------------------------------

select tests.clear_authentication();
select is((select count(*)::int from public.feedback), 0, 'a visitor reads no feedback');

select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.feedback), 0, 'a learner cannot read feedback, not even their own');

select tests.authenticate_as('learner_b');
select is((select count(*)::int from public.feedback), 0, 'the second learner cannot read feedback either');

select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.feedback), 0, 'a verified creator cannot read feedback');

select tests.authenticate_as('creator_unverified');
select is((select count(*)::int from public.feedback), 0, 'an unverified creator cannot read feedback');

select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.feedback), 4, 'an admin reads all feedback');

select tests.authenticate_as('admin_b');
select is((select count(*)::int from public.feedback), 4, 'the second admin reads all feedback');

-- update ----------------------------------------------------------------------------

select tests.clear_authentication();
with u as (update public.feedback set liked = false returning 1)
select is(count(*)::int, 0, 'a visitor cannot edit feedback') from u;

select tests.authenticate_as('learner_a');
with u as (update public.feedback set recommendations = 'Changed my mind' returning 1)
select is(count(*)::int, 0, 'a learner cannot edit feedback, not even their own') from u;

select tests.authenticate_as('admin_a');
with u as (update public.feedback set liked = true returning 1)
select is(count(*)::int, 0, 'an admin cannot edit what users said') from u;

select tests.authenticate_as_superuser();
select results_eq(
  $$ select liked, recommendations from public.feedback where usage = 'Weekends' $$,
  $$ values (false, 'Dark mode') $$,
  'after the denied updates the feedback is unchanged'
);

-- delete ----------------------------------------------------------------------------

select tests.clear_authentication();
with d as (delete from public.feedback returning 1)
select is(count(*)::int, 0, 'a visitor cannot delete feedback') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.feedback returning 1)
select is(count(*)::int, 0, 'a learner cannot delete feedback, not even their own') from d;

select tests.authenticate_as('creator_a');
with d as (delete from public.feedback returning 1)
select is(count(*)::int, 0, 'a creator cannot delete feedback') from d;

select tests.authenticate_as_superuser();
select is((select count(*)::int from public.feedback), 4, 'after the denied deletes all feedback is still there');

select tests.authenticate_as('admin_a');
with d as (delete from public.feedback where usage = 'Weekends' returning 1)
select is(count(*)::int, 1, 'an admin deletes feedback') from d;

select tests.authenticate_as_superuser();
select is((select count(*)::int from public.feedback), 3, 'exactly that feedback is gone');

-- The service role (the server's own key) can read feedback; it is never a user.
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.feedback), 3, 'the service role reads feedback');

select tests.authenticate_as_superuser();
select * from finish();
rollback;
