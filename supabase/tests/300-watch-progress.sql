-- 300 · Resume where you left off: each learner's positions (ADR 0034).
-- Proves: a learner saves their position in a video they can watch (clamped to the
-- video's length; finished past 95 %) and reads and removes only their own; another
-- learner, the video's creator, an admin and a visitor read none of them and nobody
-- writes the table directly; a visitor cannot save; a private video of someone else
-- cannot be saved; deleting the video or the account removes the positions.
begin;
select plan(24);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A second', true);
select tests.create_video('creator_a', 'A private', false);

-- Saving ------------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select is((public.save_watch_position(tests.video_id('A public'), 100)).position_seconds, 100.000::numeric(10, 3),
  'a learner saves their position');
select is((public.save_watch_position(tests.video_id('A public'), 140.5)).position_seconds, 140.500::numeric(10, 3),
  'a later report moves it');
select is((select count(*)::int from public.watch_progress), 1, 'one row per learner and video');
select is((public.save_watch_position(tests.video_id('A second'), 900)).position_seconds, 300.000::numeric(10, 3),
  'a position past the end is the end');
select is((select finished from public.watch_progress where video_id = tests.video_id('A second')), true,
  'the end counts as finished');
select is((public.save_watch_position(tests.video_id('A second'), 284)).finished, false,
  'under 95 % is not finished');
select is((public.save_watch_position(tests.video_id('A second'), 285)).finished, true,
  '95 % is finished');
select throws_ok($$ select public.save_watch_position(tests.video_id('A private'), 10) $$, '42501', null,
  'someone else''s private video cannot be saved');
select throws_ok(
  $$ insert into public.watch_progress (user_id, video_id, position_seconds) values (auth.uid(), tests.video_id('A private'), 1) $$,
  '42501', null, 'a learner cannot write the table directly');
select throws_ok(
  $$ update public.watch_progress set position_seconds = 1 $$,
  '42501', null, 'nor change a row directly');

select tests.authenticate_as('learner_b');
select lives_ok($$ select public.save_watch_position(tests.video_id('A public'), 30) $$, 'another learner saves their own');

-- Reading ------------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select is((select array_agg(position_seconds order by position_seconds)::text from public.watch_progress),
  '{140.500,285.000}', 'a learner reads only their own positions');

select tests.authenticate_as('learner_b');
select is((select count(*)::int from public.watch_progress), 1, 'the other learner reads only theirs');

select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.watch_progress), 0, 'the video''s creator reads nobody''s positions');

select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.watch_progress), 0, 'an admin reads nobody''s positions');

select tests.clear_authentication();
select throws_ok($$ select count(*) from public.watch_progress $$, '42501', null, 'a visitor cannot read the table');
select throws_ok($$ select public.save_watch_position(tests.video_id('A public'), 10) $$, '42501', null,
  'a visitor cannot save a position');

-- Removing ------------------------------------------------------------------------------

select tests.authenticate_as('learner_b');
delete from public.watch_progress where video_id = tests.video_id('A public');
select tests.authenticate_as_superuser();
select is((select count(*)::int from public.watch_progress), 2,
  'a learner''s delete removes their own row only (the other learner''s stay)');

select tests.authenticate_as('learner_b');
select lives_ok($$ select public.save_watch_position(tests.video_id('A public'), 30) $$, 'saved again');
select tests.authenticate_as('learner_a');
delete from public.watch_progress;
select is((select count(*)::int from public.watch_progress), 0, 'a learner clears their history');
select tests.authenticate_as_superuser();
select is((select count(*)::int from public.watch_progress), 1, 'clearing leaves the other learner''s');

-- Cascades ------------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select public.save_watch_position(tests.video_id('A second'), 12);
select tests.authenticate_as_superuser();
delete from public.videos where id = tests.video_id('A public');
select is((select count(*)::int from public.watch_progress where user_id = tests.get_supabase_uid('learner_b')), 0,
  'deleting the video removes its positions');
select is((select count(*)::int from public.watch_progress where user_id = tests.get_supabase_uid('learner_a')), 1,
  'other videos'' positions stay');
delete from auth.users where id = tests.get_supabase_uid('learner_a');
select is((select count(*)::int from public.watch_progress), 0, 'deleting the account removes its positions');

select * from finish();
rollback;
