-- 060 · Follows.
-- Proves: follows are public (creator pages show follower counts); following needs a
-- signed-in user and is done only as oneself, only of a creator (or an admin, who
-- also has a creator page), never of oneself; only the follower unfollows; nobody
-- edits a follow.
begin;
select plan(23);

select tests.create_cast();
insert into public.follows (follower_id, creator_id) values
  (tests.get_supabase_uid('learner_b'), tests.get_supabase_uid('creator_a')),
  (tests.get_supabase_uid('creator_b'), tests.get_supabase_uid('creator_a'));

-- select ----------------------------------------------------------------------------

select tests.clear_authentication();
select is(
  (select count(*)::int from public.follows where creator_id = tests.get_supabase_uid('creator_a')),
  2,
  'a visitor sees who follows a creator'
);

select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.follows), 2, 'a learner sees every follow');

-- insert ----------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.follows (follower_id, creator_id)
     values (tests.get_supabase_uid('learner_a'), tests.get_supabase_uid('creator_b')) $$,
  '42501', null,
  'a visitor cannot follow (following requires login)'
);

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.follows (creator_id) values (tests.get_supabase_uid('creator_a')) $$,
  'a learner follows a creator as themselves'
);
select throws_ok(
  $$ insert into public.follows (follower_id, creator_id)
     values (tests.get_supabase_uid('learner_b'), tests.get_supabase_uid('creator_b')) $$,
  '42501', null,
  'a learner cannot make another user follow someone'
);
select throws_ok(
  $$ insert into public.follows (creator_id) values (tests.get_supabase_uid('learner_b')) $$,
  '42501', null,
  'a learner cannot follow another learner (only creators and admins are followed)'
);
select throws_ok(
  $$ insert into public.follows (creator_id) values (tests.get_supabase_uid('creator_a')) $$,
  '23505', null,
  'a learner follows a creator at most once'
);

select tests.authenticate_as('creator_unverified');
select lives_ok(
  $$ insert into public.follows (creator_id) values (tests.get_supabase_uid('creator_b')) $$,
  'an unverified creator follows a creator'
);
select throws_ok(
  $$ insert into public.follows (creator_id) values (tests.get_supabase_uid('creator_unverified')) $$,
  '23514', null,
  'a creator cannot follow themselves'
);

select tests.authenticate_as('admin_a');
select throws_ok(
  $$ insert into public.follows (follower_id, creator_id)
     values (tests.get_supabase_uid('learner_a'), tests.get_supabase_uid('creator_b')) $$,
  '42501', null,
  'an admin cannot make a user follow someone'
);

select tests.authenticate_as_superuser();
select is(
  array(select p.username from public.follows f join public.profiles p on p.id = f.follower_id
        where f.creator_id = tests.get_supabase_uid('creator_a') order by 1),
  array['creator_b', 'learner_a', 'learner_b'],
  'only the allowed follows were stored'
);
select is(
  (select count(*)::int from public.follows where creator_id = tests.get_supabase_uid('creator_b')),
  1,
  'creator B has exactly the one allowed follower'
);

-- update (a follow is followed or not; nothing to edit) --------------------------------

select tests.authenticate_as('learner_a');
with u as (update public.follows set creator_id = tests.get_supabase_uid('creator_b')
           where follower_id = tests.get_supabase_uid('learner_a') returning 1)
select is(count(*)::int, 0, 'a learner cannot edit their follow') from u;
with u as (update public.follows set follower_id = tests.get_supabase_uid('learner_a')
           where follower_id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'a learner cannot take over another user''s follow') from u;

select tests.authenticate_as('admin_a');
with u as (update public.follows set created_at = now() returning 1)
select is(count(*)::int, 0, 'an admin cannot edit follows') from u;

-- delete ----------------------------------------------------------------------------

select tests.clear_authentication();
with d as (delete from public.follows returning 1)
select is(count(*)::int, 0, 'a visitor cannot remove follows') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.follows where follower_id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'a learner cannot unfollow on behalf of another user') from d;

select tests.authenticate_as('creator_a');
with d as (delete from public.follows where creator_id = tests.get_supabase_uid('creator_a') returning 1)
select is(count(*)::int, 0, 'a creator cannot remove their followers') from d;

select tests.authenticate_as('admin_a');
with d as (delete from public.follows where follower_id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'an admin cannot unfollow for a user') from d;

select tests.authenticate_as_superuser();
select is((select count(*)::int from public.follows), 4, 'after the denied deletes every follow is still there');

select tests.authenticate_as('learner_a');
with d as (delete from public.follows where creator_id = tests.get_supabase_uid('creator_a') returning 1)
select is(count(*)::int, 1, 'a learner unfollows a creator (only their own follow goes)') from d;

select tests.authenticate_as_superuser();
select is(
  array(select p.username from public.follows f join public.profiles p on p.id = f.follower_id
        where f.creator_id = tests.get_supabase_uid('creator_a') order by 1),
  array['creator_b', 'learner_b'],
  'the other followers remain'
);
select is(
  (select count(*)::int from public.follows where follower_id = tests.get_supabase_uid('learner_a')),
  0,
  'learner A follows nobody any more'
);

select * from finish();
rollback;
