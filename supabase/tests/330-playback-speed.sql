-- 330 · The playback speed preference (profiles.playback_rate, ADR 0043).
-- Proves: 1× by default; its owner sets their own and reads it through
-- public.profile_playback_rate(); the column itself is readable by no API role (the owner
-- included); no learner or creator reads or changes another's; an admin's update follows
-- the profiles update policy; only the player's steps (0.5 to 2 by 0.25) are stored; a
-- visitor has no setting to read; the function is security definer with an empty search_path.
begin;
select plan(18);

select tests.create_cast();

select is(
  (select prosecdef from pg_proc where oid = 'public.profile_playback_rate()'::regprocedure),
  true,
  'the reader is security definer'
);
select is(
  (select proconfig from pg_proc where oid = 'public.profile_playback_rate()'::regprocedure),
  array['search_path=""'],
  'with an empty search_path'
);

-- The owner ------------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select is(public.profile_playback_rate(), 1::real, 'a learner starts at 1×');
update public.profiles set playback_rate = 1.5 where id = tests.get_supabase_uid('learner_a');
select is(public.profile_playback_rate(), 1.5::real, 'a learner sets their own speed');
select throws_ok(
  $$ select playback_rate from public.profiles where id = tests.get_supabase_uid('learner_a') $$,
  '42501', null,
  'not even its owner selects the column directly (the function answers)'
);
select throws_ok(
  $$ update public.profiles set playback_rate = 3 where id = tests.get_supabase_uid('learner_a') $$,
  '23514', null,
  'faster than 2× is refused'
);
select throws_ok(
  $$ update public.profiles set playback_rate = 1.1 where id = tests.get_supabase_uid('learner_a') $$,
  '23514', null,
  'a speed between the steps is refused'
);
select throws_ok(
  $$ update public.profiles set playback_rate = 0.25 where id = tests.get_supabase_uid('learner_a') $$,
  '23514', null,
  'slower than 0.5× is refused'
);
select is(public.profile_playback_rate(), 1.5::real, 'a refused speed leaves the saved one');

-- Another learner -------------------------------------------------------------------------

select tests.authenticate_as('learner_b');
select is(public.profile_playback_rate(), 1::real, 'another learner still has their own speed');
select throws_ok(
  $$ select playback_rate from public.profiles where id = tests.get_supabase_uid('learner_a') $$,
  '42501', null,
  'nobody reads another''s speed'
);
with u as (update public.profiles set playback_rate = 0.5 where id = tests.get_supabase_uid('learner_a') returning 1)
select is((select count(*)::int from u), 0, 'a learner does not change another''s speed');

-- Creators ----------------------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select is(public.profile_playback_rate(), 1::real, 'a creator reads their own (1×)');
with u as (update public.profiles set playback_rate = 2 where id = tests.get_supabase_uid('learner_a') returning 1)
select is((select count(*)::int from u), 0, 'a creator does not change a learner''s speed');
update public.profiles set playback_rate = 0.75 where id = tests.get_supabase_uid('creator_a');
select is(public.profile_playback_rate(), 0.75::real, 'a creator sets their own speed');

-- Admins --------------------------------------------------------------------------------------

select tests.authenticate_as('admin_a');
select throws_ok(
  $$ select playback_rate from public.profiles where id = tests.get_supabase_uid('learner_a') $$,
  '42501', null,
  'an admin does not read a learner''s speed either'
);
select is(public.profile_playback_rate(), 1::real, 'an admin reads only their own');

-- Visitors -------------------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok($$ select public.profile_playback_rate() $$, '42501', null, 'a visitor has no speed to read');

select * from finish();
rollback;
