-- 410 · Sparks lead to lessons (ADR 0050).
-- Proves: a creator links their own spark to their own long-form video at a moment (and
-- unlinks it); Postgres refuses a link to another creator's video, to a spark, from a
-- long-form video, past the lesson's end, and a moment without a lesson; a learner, another
-- creator and a visitor change nothing; an admin may relink within the creator's videos;
-- the link columns are not readable by API roles, and spark_lessons()/lesson_sparks() show
-- a link only to those who can see both ends (a visitor only public lessons); deleting the
-- lesson unlinks; a lesson with sparks stays a long-form video.
begin;
select plan(30);

select tests.create_cast();
select tests.create_video('creator_a', 'Lesson A', true);
select tests.create_video('creator_a', 'Private lesson A', false);
select tests.create_video('creator_a', 'Spark A', true, 'other', 'spark');
select tests.create_video('creator_a', 'Spark A2', true, 'other', 'spark');
select tests.create_video('creator_a', 'Other spark A', true, 'other', 'spark');
select tests.create_video('creator_b', 'Lesson B', true);
select tests.create_video('creator_b', 'Spark B', true, 'other', 'spark');

-- The creator links ------------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select lives_ok(
  $$ update public.videos set lesson_id = tests.video_id('Lesson A'), lesson_at_seconds = 192
      where id = tests.video_id('Spark A') $$,
  'the creator links their spark to their lesson at 3:12');
select results_eq(
  $$ select lesson_id, lesson_at_seconds from public.spark_lessons(array[tests.video_id('Spark A')]) $$,
  $$ values (tests.video_id('Lesson A'), 192) $$,
  'the creator reads the link');
select lives_ok(
  $$ update public.videos set lesson_id = tests.video_id('Private lesson A'), lesson_at_seconds = null
      where id = tests.video_id('Spark A2') $$,
  'the creator links a spark to their private lesson, from its start');
select is((select count(*)::int from public.spark_lessons(array[tests.video_id('Spark A2')])), 1,
  'the creator sees the link to their private lesson');

-- The rules ---------------------------------------------------------------------------------

select throws_ok(
  $$ update public.videos set lesson_id = tests.video_id('Lesson B') where id = tests.video_id('Other spark A') $$,
  '23514', null, 'a link to another creator''s video is refused');
select throws_ok(
  $$ update public.videos set lesson_id = tests.video_id('Spark A2') where id = tests.video_id('Other spark A') $$,
  '23514', null, 'a spark is no lesson');
select throws_ok(
  $$ update public.videos set lesson_id = tests.video_id('Private lesson A') where id = tests.video_id('Lesson A') $$,
  '23514', null, 'a long-form video cannot link to a lesson');
select throws_ok(
  $$ update public.videos set lesson_id = tests.video_id('Lesson A'), lesson_at_seconds = 300
      where id = tests.video_id('Other spark A') $$,
  '23514', null, 'the moment lies within the lesson (300 s long)');
select throws_ok(
  $$ update public.videos set lesson_id = tests.video_id('Lesson A'), lesson_at_seconds = -1
      where id = tests.video_id('Other spark A') $$,
  '23514', null, 'a moment is never negative');
select throws_ok(
  $$ update public.videos set lesson_at_seconds = 10 where id = tests.video_id('Other spark A') $$,
  '23514', null, 'a moment needs a lesson');
select lives_ok(
  $$ update public.videos set lesson_id = tests.video_id('Lesson A'), lesson_at_seconds = 299
      where id = tests.video_id('Other spark A') $$,
  'the last second of the lesson is a moment');
select lives_ok(
  $$ update public.videos set lesson_id = null where id = tests.video_id('Other spark A') $$,
  'the creator unlinks a spark');
select tests.authenticate_as_superuser();
select is((select lesson_at_seconds from public.videos where id = tests.video_id('Other spark A')), null,
  'unlinking clears the moment');
select tests.authenticate_as('creator_a');
select throws_ok(
  $$ update public.videos set type = 'spark' where id = tests.video_id('Lesson A') $$,
  '23514', null, 'a lesson that sparks link to stays a long-form video');
select throws_ok(
  $$ update public.videos set type = 'video' where id = tests.video_id('Spark A') $$,
  '23514', null, 'a linked spark does not become a long-form video');

-- Others change nothing -------------------------------------------------------------------

select tests.authenticate_as('learner_a');
update public.videos set lesson_id = null where id = tests.video_id('Spark A');
select tests.authenticate_as('creator_b');
update public.videos set lesson_id = null where id = tests.video_id('Spark A');
select throws_ok(
  $$ update public.videos set lesson_id = tests.video_id('Lesson A') where id = tests.video_id('Spark B') $$,
  '23514', null, 'another creator cannot link their spark to creator A''s lesson');
select tests.clear_authentication();
update public.videos set lesson_id = null where id = tests.video_id('Spark A');
select tests.authenticate_as_superuser();
select is((select lesson_id from public.videos where id = tests.video_id('Spark A')), tests.video_id('Lesson A'),
  'a learner, another creator and a visitor change nothing');

select tests.authenticate_as('admin_a');
select lives_ok(
  $$ update public.videos set lesson_id = tests.video_id('Lesson A'), lesson_at_seconds = 60
      where id = tests.video_id('Other spark A') $$,
  'an admin links a spark to its creator''s lesson');
select throws_ok(
  $$ update public.videos set lesson_id = tests.video_id('Lesson B') where id = tests.video_id('Other spark A') $$,
  '23514', null, 'an admin cannot link it to another creator''s video either');
select is((select count(*)::int from public.spark_lessons(array[tests.video_id('Spark A2')])), 1,
  'an admin sees a link to a private lesson');

-- Who sees the link -------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok($$ select lesson_id from public.videos where id = tests.video_id('Spark A') $$,
  '42501', null, 'a visitor cannot read the link column itself');
select results_eq(
  $$ select spark_id, lesson_id, lesson_at_seconds from public.spark_lessons(array[tests.video_id('Spark A'), tests.video_id('Spark A2')]) $$,
  $$ values (tests.video_id('Spark A'), tests.video_id('Lesson A'), 192) $$,
  'a visitor sees the link to a public lesson only');
select is((select count(*)::int from public.lesson_sparks(tests.video_id('Lesson A'))), 2,
  'a visitor sees a public lesson''s public sparks');
select is((select count(*)::int from public.lesson_sparks(tests.video_id('Private lesson A'))), 0,
  'a visitor sees nothing of a private lesson''s sparks');

select tests.authenticate_as('learner_a');
select throws_ok($$ select lesson_at_seconds from public.videos where id = tests.video_id('Spark A') $$,
  '42501', null, 'a learner cannot read the link columns themselves');
select is((select count(*)::int from public.spark_lessons(array[tests.video_id('Spark A2')])), 0,
  'a learner sees no link to someone else''s private lesson');
select results_eq(
  $$ select spark_id, lesson_at_seconds from public.lesson_sparks(tests.video_id('Lesson A')) $$,
  $$ values (tests.video_id('Other spark A'), 60), (tests.video_id('Spark A'), 192) $$,
  'a learner reads the lesson''s sparks in the lesson''s order');

select tests.authenticate_as('creator_a');
update public.videos set is_public = false where id = tests.video_id('Other spark A');
select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.lesson_sparks(tests.video_id('Lesson A'))), 1,
  'a private spark is not among the lesson''s sparks');

-- Deleting the lesson unlinks --------------------------------------------------------------

select tests.authenticate_as('creator_a');
delete from public.videos where id = tests.video_id('Private lesson A');
select tests.authenticate_as_superuser();
select is(
  (select row(lesson_id, lesson_at_seconds)::text from public.videos where id = tests.video_id('Spark A2')),
  row(null::uuid, null::integer)::text,
  'deleting the lesson unlinks its sparks');
select is((select count(*)::int from public.videos where id = tests.video_id('Spark A2')), 1, 'the spark stays');

select * from finish();
rollback;
