-- 390 · Courses (ADR 0048): courses, course_lessons, course_enrollments.
-- Proves: only a verified creator creates a course (not a learner, an unverified creator,
-- an admin or a visitor), in a category they may use; a draft is seen by its creator and
-- admins only, a published course and its lessons by everyone; lessons are the creator's
-- own public videos — Postgres refuses another creator's video and a private one, even for
-- the owner; only the owner adds, reorders and removes lessons, and positions are unique
-- (checked at commit, so a swap passes); an admin may unpublish and delete a course but
-- never edit or publish it; a learner enrolls only in a published course, only as
-- themself, and enrolments are private to the learner.
begin;
select plan(43);

select tests.create_cast();
select tests.create_video('creator_a', 'A one', true);
select tests.create_video('creator_a', 'A two', true);
select tests.create_video('creator_a', 'A three', true);
select tests.create_video('creator_a', 'A private', false);
select tests.create_video('creator_b', 'B public', true);

-- Creating ------------------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select lives_ok(
  $$ insert into public.courses (title, description, category_id) values ('Optics', 'Light in order', 'natural-sciences-physics') $$,
  'a verified creator creates a course');
select is((select creator_id from public.courses where title = 'Optics'), tests.get_supabase_uid('creator_a'), 'it is theirs');
select is((select is_published from public.courses where title = 'Optics'), false, 'a new course is a draft');
select throws_ok(
  $$ insert into public.courses (title, category_id) values ('Cells', 'natural-sciences-biology') $$,
  '42501', null, 'not in a category the creator may not use');
select throws_ok(
  $$ insert into public.courses (title, cover_path) values ('Elsewhere', 'someone/else/cover.jpg') $$,
  '23514', null, 'the cover lives in the creator''s own courses folder');

select tests.authenticate_as('learner_a');
select throws_ok($$ insert into public.courses (title) values ('Learner course') $$, '42501', null, 'a learner may not create a course');
select tests.authenticate_as('creator_unverified');
select throws_ok($$ insert into public.courses (title) values ('Unverified course') $$, '42501', null,
  'an unverified creator may not create a course');
select tests.authenticate_as('admin_a');
select throws_ok($$ insert into public.courses (title) values ('Admin course') $$, '42501', null, 'an admin may not create a course');
select tests.clear_authentication();
select throws_ok($$ insert into public.courses (title) values ('Visitor course') $$, '42501', null, 'a visitor may not create a course');

-- Lessons -------------------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select lives_ok(
  $$ insert into public.course_lessons (course_id, video_id, position, section_title) values
       (tests.row_id('public.courses', 'title', 'Optics'), tests.video_id('A one'), 0, 'Basics'),
       (tests.row_id('public.courses', 'title', 'Optics'), tests.video_id('A two'), 1, null) $$,
  'the owner adds their own public videos as lessons');
select throws_ok(
  $$ insert into public.course_lessons (course_id, video_id, position)
     values (tests.row_id('public.courses', 'title', 'Optics'), tests.video_id('B public'), 2) $$,
  '23514', 'a course''s lessons are its creator''s own public videos',
  'Postgres refuses another creator''s video');
select throws_ok(
  $$ insert into public.course_lessons (course_id, video_id, position)
     values (tests.row_id('public.courses', 'title', 'Optics'), tests.video_id('A private'), 2) $$,
  '23514', null, 'Postgres refuses a private video');
select throws_ok(
  $$ update public.course_lessons set video_id = tests.video_id('B public') where video_id = tests.video_id('A two') $$,
  '42501', null, 'a lesson''s video cannot be swapped for another (no update right on it)');
select lives_ok(
  $$ update public.course_lessons set position = case position when 0 then 1 else 0 end
      where course_id = tests.row_id('public.courses', 'title', 'Optics') $$,
  'the owner swaps two positions (the unique position is checked at commit)');
select is(
  (select array_agg(video_id order by position) from public.course_lessons where course_id = tests.row_id('public.courses', 'title', 'Optics')),
  array[tests.video_id('A two'), tests.video_id('A one')], 'in the new order');
select throws_ok(
  $$ set constraints course_lessons_position_unique immediate;
     insert into public.course_lessons (course_id, video_id, position)
     values (tests.row_id('public.courses', 'title', 'Optics'), tests.video_id('A three'), 0) $$,
  '23505', null, 'two lessons never share a position');
set constraints course_lessons_position_unique deferred;
select throws_ok(
  $$ insert into public.course_lessons (course_id, video_id, position)
     values (tests.row_id('public.courses', 'title', 'Optics'), tests.video_id('A one'), 5) $$,
  '23505', null, 'a video is in a course once');

-- Another creator and learners cannot touch the lessons (the course is still a draft, then published).
select tests.authenticate_as('creator_b');
select is((select count(*)::int from public.courses where title = 'Optics'), 0, 'another creator does not see a draft');
select is((select count(*)::int from public.course_lessons where course_id = tests.row_id('public.courses', 'title', 'Optics')), 0,
  'nor its lessons');
select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.courses where title = 'Optics'), 0, 'a learner does not see a draft');
select tests.clear_authentication();
select is((select count(*)::int from public.courses where title = 'Optics'), 0, 'a visitor does not see a draft');
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.courses where title = 'Optics'), 1, 'an admin sees a draft');

-- Enrolment needs a published course.
select tests.authenticate_as('learner_a');
select throws_ok(
  $$ insert into public.course_enrollments (course_id) values (tests.row_id('public.courses', 'title', 'Optics')) $$,
  '42501', null, 'nobody enrolls in a draft');

-- Publishing ----------------------------------------------------------------------------

select tests.authenticate_as('admin_a');
select throws_ok(
  $$ update public.courses set is_published = true where title = 'Optics' $$,
  '42501', 'admins may only unpublish a course', 'an admin may not publish');
select tests.authenticate_as('creator_a');
select lives_ok($$ update public.courses set is_published = true where title = 'Optics' $$, 'the owner publishes');

select tests.clear_authentication();
select is((select count(*)::int from public.courses where title = 'Optics'), 1, 'a visitor sees a published course');
select is((select count(*)::int from public.course_lessons where course_id = tests.row_id('public.courses', 'title', 'Optics')), 2,
  'and its lessons');

select tests.authenticate_as('creator_b');
select throws_ok(
  $$ insert into public.course_lessons (course_id, video_id, position)
     values (tests.row_id('public.courses', 'title', 'Optics'), tests.video_id('A three'), 2) $$,
  '42501', null, 'another creator adds no lesson to it (even one of its creator''s videos)');
update public.course_lessons set position = position + 10 where course_id = tests.row_id('public.courses', 'title', 'Optics');
delete from public.course_lessons where course_id = tests.row_id('public.courses', 'title', 'Optics');
update public.courses set title = 'Hijacked' where title = 'Optics';
select tests.authenticate_as('learner_b');
delete from public.course_lessons where course_id = tests.row_id('public.courses', 'title', 'Optics');
delete from public.courses where title = 'Optics';
select tests.authenticate_as_superuser();
select is(
  (select array_agg(position order by position) from public.course_lessons where course_id = tests.row_id('public.courses', 'title', 'Optics')),
  array[0, 1], 'another creator and a learner changed, removed and renamed nothing');

-- Admins: unpublish and delete, never edit ------------------------------------------------

select tests.authenticate_as('admin_a');
select throws_ok($$ update public.courses set title = 'Admin title' where title = 'Optics' $$, '42501',
  'admins may only unpublish a course', 'an admin may not edit a course');
select throws_ok(
  $$ insert into public.course_lessons (course_id, video_id, position)
     values (tests.row_id('public.courses', 'title', 'Optics'), tests.video_id('A three'), 2) $$,
  '42501', null, 'an admin adds no lesson');

-- Enrolments ------------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.course_enrollments (course_id) values (tests.row_id('public.courses', 'title', 'Optics')) $$,
  'a learner enrolls in a published course');
select throws_ok(
  $$ insert into public.course_enrollments (user_id, course_id)
     values (tests.get_supabase_uid('learner_b'), tests.row_id('public.courses', 'title', 'Optics')) $$,
  '42501', null, 'nobody enrolls someone else');
select is((select count(*)::int from public.course_enrollments), 1, 'the learner sees their enrolment');
select tests.authenticate_as('learner_b');
select is((select count(*)::int from public.course_enrollments), 0, 'another learner does not see it');
select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.course_enrollments), 0, 'the course''s creator does not see it');
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.course_enrollments), 0, 'an admin does not see it');
select tests.clear_authentication();
select throws_ok($$ select count(*) from public.course_enrollments $$, '42501', null, 'a visitor may not read enrolments');

select tests.authenticate_as('admin_a');
select lives_ok($$ update public.courses set is_published = false where title = 'Optics' $$, 'an admin unpublishes a course');
select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.courses where title = 'Optics'), 0, 'an unpublished course is hidden again');
select tests.authenticate_as('learner_b');
select throws_ok(
  $$ insert into public.course_enrollments (course_id) values (tests.row_id('public.courses', 'title', 'Optics')) $$,
  '42501', null, 'nobody enrolls in an unpublished course');

select tests.authenticate_as('admin_a');
select lives_ok($$ delete from public.courses where title = 'Optics' $$, 'an admin deletes a course');
select tests.authenticate_as_superuser();
select is((select count(*)::int from public.course_lessons where video_id in (tests.video_id('A one'), tests.video_id('A two'))), 0,
  'its lessons go with it');

select * from finish();
rollback;
