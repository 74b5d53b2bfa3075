-- 460 · The planner's row guess for the spark-lesson functions (docs/performance.md, "The video
-- page's statement, EXPLAINed").
-- Proves: public.lesson_sparks() and public.spark_lessons() tell the planner they answer a few
-- rows (10), not the 1,000 a set-returning function is guessed at, so the video page's statement
-- looks the sparks up by primary key instead of hashing public.videos; and they still answer as
-- before for a learner (the rights are 410-spark-lessons.sql's).
begin;
select plan(4);

select is((select prorows from pg_proc where oid = 'public.lesson_sparks(uuid)'::regprocedure), 10::real,
  'lesson_sparks() is guessed at 10 rows');
select is((select prorows from pg_proc where oid = 'public.spark_lessons(uuid[])'::regprocedure), 10::real,
  'spark_lessons() is guessed at 10 rows');

select tests.create_cast();
select tests.create_video('creator_a', 'Lesson', true);
select tests.create_video('creator_a', 'Spark', true, 'other', 'spark');
select tests.authenticate_as_superuser();
update public.videos set lesson_id = tests.video_id('Lesson'), lesson_at_seconds = 30 where id = tests.video_id('Spark');

select tests.authenticate_as('learner_a');
select results_eq(
  $$ select spark_id, lesson_at_seconds from public.lesson_sparks(tests.video_id('Lesson')) $$,
  $$ values (tests.video_id('Spark'), 30) $$,
  'a learner still gets the lesson''s spark from lesson_sparks()');
select results_eq(
  $$ select spark_id, lesson_id from public.spark_lessons(array[tests.video_id('Spark')]) $$,
  $$ values (tests.video_id('Spark'), tests.video_id('Lesson')) $$,
  'and its lesson from spark_lessons()');

select * from finish();
rollback;
