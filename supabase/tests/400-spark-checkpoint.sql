-- 400 · A spark ends with at most one question (ADR 0049).
-- Proves: add_checkpoint() puts a spark's question at its end and marks it `on_spark`
-- (a long-form video's are not); a second question on a spark is refused to its creator
-- and to an admin, and to a direct insert by the service role; a direct insert cannot put
-- a spark's question anywhere but at its end, nor claim `on_spark` falsely; the unique
-- index holds even with the trigger out of the way; and reading is as before: a learner,
-- another learner and a visitor read the spark's question (never its key), another
-- creator cannot add one.
begin;
select plan(16);

select tests.create_cast();
select tests.create_video('creator_a', 'Spark one', true, 'other', 'spark');
select tests.create_video('creator_a', 'Spark two', true, 'other', 'spark');
select tests.create_video('creator_a', 'A lesson', true);

select has_index('public', 'checkpoints', 'checkpoints_one_per_spark', 'one checkpoint per spark, as an index');

select tests.authenticate_as('creator_a');
select lives_ok($$ select public.add_checkpoint(tests.video_id('Spark one'), 3, 'At the end?', array['yes', 'no'],
  array[0]::smallint[], 'It ends here.', false) $$, 'the creator adds a question to a spark');
select is((select at_seconds::numeric from public.checkpoints where video_id = tests.video_id('Spark one')), 30.000::numeric,
  'it is at the spark''s end');
select is((select on_spark from public.checkpoints where video_id = tests.video_id('Spark one')), true, 'and marked on_spark');
select lives_ok($$ select public.add_checkpoint(tests.video_id('A lesson'), 10, 'In a lesson', array['a', 'b'],
  array[0]::smallint[]) $$, 'a lesson''s checkpoint');
select is((select on_spark from public.checkpoints where video_id = tests.video_id('A lesson')), false,
  'is not on_spark');
select throws_ok($$ select public.add_checkpoint(tests.video_id('Spark one'), 3, 'Second', array['a', 'b'],
  array[0]::smallint[]) $$, '23514', 'A spark can have only one checkpoint', 'the creator cannot add a second');

select tests.authenticate_as('admin_a');
select throws_ok($$ select public.add_checkpoint(tests.video_id('Spark one'), 3, 'Admin''s second', array['a', 'b'],
  array[0]::smallint[]) $$, '23514', 'A spark can have only one checkpoint', 'nor can an admin');

select tests.authenticate_as('creator_b');
select throws_ok($$ select public.add_checkpoint(tests.video_id('Spark two'), 3, 'Not mine', array['a', 'b'],
  array[0]::smallint[]) $$, '42501', null, 'another creator cannot add one to the spark');

select tests.authenticate_as_service_role();
select throws_ok($$ insert into public.checkpoints (video_id, at_seconds, question, options)
  values (tests.video_id('Spark one'), 30, 'Direct second', array['a', 'b']) $$, '23514', null,
  'a direct second insert is refused too');
select throws_ok($$ insert into public.checkpoints (video_id, at_seconds, question, options)
  values (tests.video_id('Spark two'), 12, 'Mid-spark', array['a', 'b']) $$, '23514', 'A spark''s question is at its end',
  'a spark''s question cannot be anywhere but its end');
select lives_ok($$ insert into public.checkpoints (video_id, at_seconds, question, options, on_spark)
  values (tests.video_id('A lesson'), 20, 'Claims to be on a spark', array['a', 'b'], true) $$,
  'a lesson''s checkpoint inserted with on_spark = true');
select is((select on_spark from public.checkpoints where question = 'Claims to be on a spark'), false,
  'is corrected by the trigger');

-- With triggers off (as a restore might run), the index alone still refuses a second one.
select tests.authenticate_as_superuser();
set local session_replication_role = replica;
select throws_ok($$ insert into public.checkpoints (video_id, at_seconds, question, options, on_spark)
  values (tests.video_id('Spark one'), 29, 'Past the trigger', array['a', 'b'], true) $$, '23505', null,
  'the unique index holds without the trigger');
set local session_replication_role = origin;

-- Reading is unchanged: the question for whoever sees the spark, the key for nobody else.
select tests.authenticate_as('learner_b');
select results_eq($$ select question, (select count(*)::int from public.checkpoint_keys) from public.checkpoints
  where video_id = tests.video_id('Spark one') $$, $$ values ('At the end?'::text, 0) $$,
  'another learner reads the spark''s question but no key');
select tests.clear_authentication();
select is((select question from public.checkpoints where video_id = tests.video_id('Spark one')), 'At the end?',
  'a visitor reads it too');

select * from finish();
rollback;
