-- 370 · Checkpoints: questions inside a video (ADR 0047).
-- Proves: the video's creator (or an admin) adds checkpoints with their answer key, and
-- Postgres refuses bad ones (options, key, question length, moment, more than 20, a second
-- one on a spark); everyone who can see the video reads the questions, but only the
-- creator and admins read the key; a learner answers through answer_checkpoint() (scored,
-- recorded, the explanation returned) and reads only their own answers; the creator reads
-- aggregates only (checkpoint_stats), which another creator, a learner and a visitor
-- cannot; nobody writes the tables directly; deleting a checkpoint removes its key and answers.
begin;
select plan(48);

select tests.create_cast();
select tests.create_video('creator_a', 'A lesson', true);
select tests.create_video('creator_a', 'A private', false);
select tests.create_video('creator_a', 'A spark', true, 'other', 'spark');

-- Authoring ----------------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select lives_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 8, 'What is 2 + 2?',
  array['3', '4', '5'], array[1]::smallint[], 'Two and two make four.', true) $$,
  'the creator adds a required checkpoint');
select lives_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 20, 'Which are even?',
  array['1', '2', '3', '4'], array[3, 1]::smallint[], '', false) $$,
  'and an optional one with two correct options');
select is((select correct::text from public.checkpoint_keys k join public.checkpoints c on c.id = k.checkpoint_id
  where c.at_seconds = 20), '{1,3}', 'the key is kept in order');
select lives_ok($$ select public.add_checkpoint(tests.video_id('A private'), 10, 'Private?', array['yes', 'no'],
  array[0]::smallint[]) $$, 'a checkpoint on a private video');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 30, 'One option', array['only'],
  array[0]::smallint[]) $$, '23514', null, 'a question needs at least 2 options');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 30, 'Six options',
  array['a', 'b', 'c', 'd', 'e', 'f'], array[0]::smallint[]) $$, '23514', null, 'and at most 5');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 30, 'Blank option', array['a', ' '],
  array[0]::smallint[]) $$, '23514', null, 'no option is blank');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 30, 'No key', array['a', 'b'],
  array[]::smallint[]) $$, '23514', null, 'at least one option is correct');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 30, 'Key outside', array['a', 'b'],
  array[2]::smallint[]) $$, '23514', null, 'the correct options are among the options');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 30, repeat('x', 501), array['a', 'b'],
  array[0]::smallint[]) $$, '23514', null, 'a question has at most 500 characters');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 300, 'At the end', array['a', 'b'],
  array[0]::smallint[]) $$, '23514', null, 'a video''s checkpoint is inside it (not at its end)');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 0, 'At zero', array['a', 'b'],
  array[0]::smallint[]) $$, '23514', null, 'nor at its start');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 8, 'Same moment', array['a', 'b'],
  array[0]::smallint[]) $$, '23505', null, 'one checkpoint per moment');
select lives_ok($$ select public.add_checkpoint(tests.video_id('A spark'), 5, 'Spark question', array['a', 'b'],
  array[0]::smallint[]) $$, 'a spark ends with one question');
select is((select at_seconds from public.checkpoints where video_id = tests.video_id('A spark')), 30.000::numeric(10, 3),
  'a spark''s question is at its end');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A spark'), 5, 'Another', array['a', 'b'],
  array[0]::smallint[]) $$, '23514', null, 'a spark has only one');
select throws_ok($$ insert into public.checkpoints (video_id, at_seconds, question, options)
  values (tests.video_id('A lesson'), 40, 'Direct', array['a', 'b']) $$, '42501', null,
  'nobody writes checkpoints directly');

select tests.authenticate_as('creator_b');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 40, 'Not mine', array['a', 'b'],
  array[0]::smallint[]) $$, '42501', null, 'another creator cannot add to the video');
select tests.authenticate_as('learner_a');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 40, 'Not mine', array['a', 'b'],
  array[0]::smallint[]) $$, '42501', null, 'nor can a learner');

select tests.authenticate_as('admin_a');
select lives_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 100, 'Admin''s', array['a', 'b'],
  array[0]::smallint[]) $$, 'an admin adds one');
select tests.authenticate_as('creator_a');
select lives_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), n, 'Filler', array['a', 'b'], array[0]::smallint[])
  from generate_series(101, 117) n $$, 'up to 20 per video');
select throws_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 150, 'The 21st', array['a', 'b'],
  array[0]::smallint[]) $$, '23514', null, 'not a 21st');
select tests.authenticate_as_superuser();
delete from public.checkpoints where question in ('Filler', 'Admin''s');

-- Reading the questions, not the key ---------------------------------------------------

select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.checkpoints where video_id = tests.video_id('A lesson')), 2,
  'a learner reads the questions of a video they can see');
select is((select count(*)::int from public.checkpoints where video_id = tests.video_id('A private')), 0,
  'not of someone else''s private video');
select is((select count(*)::int from public.checkpoint_keys), 0, 'a learner reads no answer key');

select tests.clear_authentication();
select is((select count(*)::int from public.checkpoints where video_id = tests.video_id('A lesson')), 2,
  'a visitor reads the questions of a public video');
select throws_ok($$ select count(*) from public.checkpoint_keys $$, '42501', null, 'a visitor cannot read the keys');
select throws_ok($$ select count(*) from public.checkpoint_attempts $$, '42501', null, 'nor the answers');

select tests.authenticate_as('creator_b');
select is((select count(*)::int from public.checkpoint_keys), 0, 'another creator reads no keys');
select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.checkpoint_keys), 4, 'the creator reads the keys of their videos');
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.checkpoint_keys), 4, 'an admin reads every key');

-- Answering ----------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select is((select row(correct, explanation)::text from public.answer_checkpoint(
  (select id from public.checkpoints where at_seconds = 8), array[0]::smallint[])),
  '(f,"Two and two make four.")', 'a wrong answer: not correct, with the explanation');
select is((select correct from public.answer_checkpoint(
  (select id from public.checkpoints where at_seconds = 8), array[1]::smallint[])), true, 'then the right one');
select is((select correct from public.answer_checkpoint(
  (select id from public.checkpoints where at_seconds = 20), array[1]::smallint[])), false,
  'only some of the correct options is not right');
select throws_ok($$ select public.answer_checkpoint((select id from public.checkpoints where at_seconds = 8),
  array[7]::smallint[]) $$, '22023', null, 'an option the question does not have is refused');
select throws_ok($$ select public.answer_checkpoint(tests.row_id('public.checkpoints', 'question', 'Private?'),
  array[0]::smallint[]) $$, '42501', null, 'a checkpoint of someone else''s private video cannot be answered');
select throws_ok($$ insert into public.checkpoint_attempts (checkpoint_id, user_id, chosen, correct)
  values ((select id from public.checkpoints where at_seconds = 8), auth.uid(), array[0]::smallint[], true) $$,
  '42501', null, 'nobody writes answers directly');
select is((select count(*)::int from public.checkpoint_attempts), 3, 'a learner reads their own answers');
select is((select row(attempts, last_correct, ever_correct)::text from public.my_checkpoint_results(tests.video_id('A lesson'))
  where checkpoint_id = (select id from public.checkpoints where at_seconds = 8)), '(2,t,t)',
  'and their results per checkpoint');

select tests.authenticate_as('learner_b');
select public.answer_checkpoint((select id from public.checkpoints where at_seconds = 8), array[1]::smallint[]);
select public.save_watch_position(tests.video_id('A lesson'), 8);
select is((select count(*)::int from public.checkpoint_attempts), 1, 'another learner reads only theirs');

select tests.clear_authentication();
select throws_ok($$ select public.answer_checkpoint((select id from public.checkpoints where at_seconds = 8),
  array[1]::smallint[]) $$, '42501', null, 'a visitor cannot answer');

-- Aggregates ---------------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.checkpoint_attempts), 0, 'the creator reads nobody''s answers');
select is((select row(learners, first_try_correct, top_wrong_option, top_wrong_count, stopped_here)::text
  from public.checkpoint_stats(tests.video_id('A lesson')) where at_seconds = 8), '(2,1,0,1,1)',
  'the creator reads aggregates: 2 learners, 1 right first, option 0 the wrong choice, 1 stopped there');

select tests.authenticate_as('creator_b');
select throws_ok($$ select * from public.checkpoint_stats(tests.video_id('A lesson')) $$, '42501', null,
  'another creator cannot read the aggregates');
select tests.authenticate_as('learner_a');
select throws_ok($$ select * from public.checkpoint_stats(tests.video_id('A lesson')) $$, '42501', null,
  'nor can a learner');
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.checkpoint_stats(tests.video_id('A lesson'))), 2, 'an admin can');
select tests.authenticate_as('creator_b');

-- Deleting -----------------------------------------------------------------------------

delete from public.checkpoints where video_id = tests.video_id('A lesson');
select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.checkpoints where video_id = tests.video_id('A lesson')), 2,
  'another creator''s delete removes nothing');
delete from public.checkpoints where at_seconds = 8;
select tests.authenticate_as_superuser();
select is((select count(*)::int from public.checkpoint_attempts), 1,
  'the creator deletes a checkpoint, its key and answers go with it');

select * from finish();
rollback;
