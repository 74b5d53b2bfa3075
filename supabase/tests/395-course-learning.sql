-- 395 · Learning a course (ADR 0048): enrolments, the sticky "finished", the funnel.
-- Proves: a learner enrolls in a published course (not an unpublished one, not for
-- someone else, not twice) and leaves it; each learner reads only their own enrolments
-- (not another learner, not the creator, not an admin, not a visitor); the first time a
-- video is watched to the end is kept when it is watched again; course_funnel() answers
-- the course's creator and admins only, with counts (enrolled; per lesson reached and
-- finished, a lesson with a required checkpoint finished only once it is answered right;
-- the creator's own watching not counted); deleting the course removes its enrolments.
begin;
select plan(33);

select tests.create_cast();
select tests.create_video('creator_a', 'Lesson one', true);
select tests.create_video('creator_a', 'Lesson two', true);
select tests.create_video('creator_a', 'Lesson three', true);

select tests.authenticate_as('creator_a');
insert into public.courses (title, category_id, is_published) values ('Course A', 'natural-sciences-physics', true);
insert into public.courses (title, category_id, is_published) values ('Draft', 'natural-sciences-physics', false);
insert into public.courses (title, category_id, is_published) values ('Empty', 'natural-sciences-physics', true);
insert into public.course_lessons (course_id, video_id, position)
values (tests.row_id('public.courses', 'title', 'Course A'), tests.video_id('Lesson one'), 0),
       (tests.row_id('public.courses', 'title', 'Course A'), tests.video_id('Lesson two'), 1),
       (tests.row_id('public.courses', 'title', 'Course A'), tests.video_id('Lesson three'), 2);
select public.add_checkpoint(tests.video_id('Lesson two'), 8, 'Required?', array['yes', 'no'], array[0]::smallint[], '', true);
select public.add_checkpoint(tests.video_id('Lesson two'), 20, 'Optional?', array['yes', 'no'], array[0]::smallint[], '', false);

create temporary table ids as
select tests.row_id('public.courses', 'title', 'Course A') as course,
       tests.row_id('public.courses', 'title', 'Draft') as draft,
       tests.row_id('public.courses', 'title', 'Empty') as empty,
       (select id from public.checkpoints where question = 'Required?') as required_q,
       (select id from public.checkpoints where question = 'Optional?') as optional_q;
grant select on ids to authenticated, anon;

-- Enrolling ------------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select lives_ok($$ insert into public.course_enrollments (course_id) select course from ids $$,
  'a learner enrolls in a published course');
select lives_ok($$ insert into public.course_enrollments (course_id) select course from ids on conflict do nothing $$,
  'enrolling again changes nothing (the app''s idempotent enroll)');
select throws_ok($$ insert into public.course_enrollments (course_id) select course from ids $$, '23505', null,
  'one enrolment per learner and course');
select throws_ok($$ insert into public.course_enrollments (course_id) select draft from ids $$, '42501', null,
  'nobody enrolls in an unpublished course');
select throws_ok(
  $$ insert into public.course_enrollments (user_id, course_id) select tests.get_supabase_uid('learner_b'), course from ids $$,
  '42501', null, 'nor enrolls someone else');

select tests.authenticate_as('learner_b');
select lives_ok($$ insert into public.course_enrollments (course_id) select course from ids $$, 'another learner enrolls');
select tests.authenticate_as('creator_a');
select lives_ok($$ insert into public.course_enrollments (course_id) select course from ids $$,
  'the creator may enroll in their own course (their watching is not counted below)');
select throws_ok($$ insert into public.course_enrollments (course_id) select draft from ids $$, '42501', null,
  'not even the creator enrolls in an unpublished course');

select tests.clear_authentication();
select throws_ok($$ insert into public.course_enrollments (course_id) select course from ids $$, '42501', null,
  'a visitor cannot enroll');

-- Reading enrolments -------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select is((select array_agg(user_id) from public.course_enrollments), array[tests.get_supabase_uid('learner_a')],
  'a learner reads only their own enrolment');
select tests.authenticate_as('learner_b');
select is((select count(*)::int from public.course_enrollments), 1, 'the other learner only theirs');
select tests.authenticate_as('creator_b');
select is((select count(*)::int from public.course_enrollments), 0, 'another creator reads none');
select tests.authenticate_as('creator_a');
select is((select array_agg(user_id) from public.course_enrollments), array[tests.get_supabase_uid('creator_a')],
  'the course''s creator reads only their own, never their learners''');
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.course_enrollments), 0, 'an admin reads nobody''s enrolments');
select tests.clear_authentication();
select throws_ok($$ select count(*) from public.course_enrollments $$, '42501', null, 'a visitor cannot read them');

-- Watching: the first finish is kept -------------------------------------------------------------

select tests.authenticate_as('learner_a');
select is((public.save_watch_position(tests.video_id('Lesson one'), 300)).first_finished_at is not null, true,
  'watching to the end stamps the first finish');
select is((public.save_watch_position(tests.video_id('Lesson one'), 10)).finished, false,
  'watching again from the start: no longer at the end');
select is((select first_finished_at is not null from public.watch_progress where video_id = tests.video_id('Lesson one')), true,
  'but the first finish stays');
select public.save_watch_position(tests.video_id('Lesson two'), 299);
select public.answer_checkpoint((select required_q from ids), array[1]::smallint[]);
select public.answer_checkpoint((select optional_q from ids), array[0]::smallint[]);
select is((public.save_watch_position(tests.video_id('Lesson three'), 100)).first_finished_at, null,
  'a position short of the end stamps nothing');

select tests.authenticate_as('learner_b');
select public.save_watch_position(tests.video_id('Lesson one'), 100);
select tests.authenticate_as('creator_a');
select public.save_watch_position(tests.video_id('Lesson one'), 300);
select public.save_watch_position(tests.video_id('Lesson two'), 300);
select tests.authenticate_as('learner_b');
select public.save_watch_position(tests.video_id('Lesson two'), 300);
select tests.authenticate_as('learner_b');
delete from public.course_enrollments;
select tests.authenticate_as_superuser();
select is((select count(*)::int from public.course_enrollments), 2,
  'a learner''s leaving removes their own enrolment only');
select tests.authenticate_as('learner_b');
insert into public.course_enrollments (course_id) select course from ids;

-- The funnel ---------------------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select is(
  (select array_agg(format('%s:%s/%s/%s', lesson_position, enrolled, reached, finished) order by lesson_position)
     from public.course_funnel((select course from ids))),
  array['0:2/2/1', '1:2/2/0', '2:2/1/0'],
  'the creator sees 2 learners (not themself); lesson 1 reached by 2, finished by 1 (kept though watched again); lesson 2 watched to the end by both but its required checkpoint not yet answered right; lesson 3 reached by 1');

select tests.authenticate_as('learner_a');
select public.answer_checkpoint((select required_q from ids), array[0]::smallint[]);
select tests.authenticate_as('creator_a');
select is((select finished from public.course_funnel((select course from ids)) where lesson_position = 1), 1,
  'a right answer to the required checkpoint finishes the lesson');
select is((select title from public.course_funnel((select course from ids)) where lesson_position = 2), 'Lesson three',
  'each row names its lesson');
select is(
  (select format('%s:%s/%s/%s', coalesce(lesson_position::text, '-'), enrolled, reached, finished)
     from public.course_funnel((select empty from ids))),
  '-:0/0/0', 'a course without lessons answers one row with its count');

select tests.authenticate_as('admin_a');
select is((select sum(reached)::int from public.course_funnel((select course from ids))), 5, 'an admin reads the funnel too');

select tests.authenticate_as('creator_b');
select throws_ok($$ select * from public.course_funnel((select course from ids)) $$, '42501', null,
  'another creator cannot read the funnel');
select tests.authenticate_as('learner_a');
select throws_ok($$ select * from public.course_funnel((select course from ids)) $$, '42501', null,
  'an enrolled learner cannot');
select throws_ok($$ select * from public.course_funnel(gen_random_uuid()) $$, '42501', null,
  'an unknown course is refused the same way');
select tests.clear_authentication();
select throws_ok($$ select * from public.course_funnel((select course from ids)) $$, '42501', null,
  'a visitor cannot');
select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.watch_progress), 2,
  'the creator reads only their own positions, never their learners''');

-- Leaving and cascades -----------------------------------------------------------------------

select tests.authenticate_as('learner_a');
delete from public.course_enrollments;
select is((select count(*)::int from public.course_enrollments), 0, 'a learner leaves the course');
select tests.authenticate_as('creator_a');
select is((select enrolled from public.course_funnel((select course from ids)) limit 1), 1,
  'the funnel counts the learners still enrolled');
select tests.authenticate_as_superuser();
delete from public.courses where id = (select course from ids);
select is((select count(*)::int from public.course_enrollments), 0, 'deleting the course removes its enrolments');

select * from finish();
rollback;
