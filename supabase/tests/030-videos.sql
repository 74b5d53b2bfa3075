-- 030 · Videos and sparks.
-- Proves: public videos are seen by everyone, private ones only by their creator and
-- admins; only verified creators (and admins) publish, only as themselves and only in
-- categories they may use (approved ones while they have any, else those they asked
-- for and were not refused; 'other' always);
-- creators edit and delete their own videos, admins any; nobody moves a video to
-- another owner or sets server-owned columns (status, media, counters).
begin;
select plan(63);

select tests.create_cast();
select tests.create_video('creator_a', 'A public physics', true, 'natural-sciences-physics');
select tests.create_video('creator_a', 'A private draft', false, 'natural-sciences-physics');
select tests.create_video('creator_b', 'B public biology', true, 'natural-sciences-biology');
select tests.create_video('creator_b', 'B private draft', false, 'natural-sciences-biology');

-- select ----------------------------------------------------------------------------

select tests.clear_authentication();
select is(
  array(select title from public.videos order by title),
  array['A public physics', 'B public biology'],
  'a visitor sees only public videos'
);

select tests.authenticate_as('learner_a');
select is(
  array(select title from public.videos order by title),
  array['A public physics', 'B public biology'],
  'a learner sees only public videos'
);
select is(
  (select count(*)::int from public.videos where id = tests.video_id('A private draft')),
  0,
  'a learner cannot read a private video even by its id'
);

select tests.authenticate_as('creator_unverified');
select is(
  array(select title from public.videos order by title),
  array['A public physics', 'B public biology'],
  'an unverified creator sees only public videos'
);

select tests.authenticate_as('creator_a');
select is(
  array(select title from public.videos order by title),
  array['A private draft', 'A public physics', 'B public biology'],
  'a creator sees public videos and their own private ones'
);

select tests.authenticate_as('creator_b');
select is(
  array(select title from public.videos order by title),
  array['A public physics', 'B private draft', 'B public biology'],
  'another creator does not see creator A''s private video'
);

select tests.authenticate_as('admin_a');
select is(
  array(select title from public.videos order by title),
  array['A private draft', 'A public physics', 'B private draft', 'B public biology'],
  'an admin sees every video, private ones included'
);

-- insert ----------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.videos (creator_id, title, source_path)
     values (tests.get_supabase_uid('creator_a'), 'Visitor upload', tests.get_supabase_uid('creator_a') || '/videos/v.mp4') $$,
  '42501', null,
  'a visitor cannot create a video'
);

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ insert into public.videos (title, source_path) values ('Learner upload', tests.get_supabase_uid('learner_a') || '/videos/l.mp4') $$,
  '42501', null,
  'a learner cannot create a video'
);
select throws_ok(
  $$ insert into public.videos (title, external_url) values ('Learner link', 'https://youtu.be/abc') $$,
  '42501', null,
  'a learner cannot publish a YouTube link either'
);

select tests.authenticate_as('creator_unverified');
select throws_ok(
  $$ insert into public.videos (title, category_id, source_path)
     values ('Unverified upload', 'natural-sciences-physics', tests.get_supabase_uid('creator_unverified') || '/videos/u.mp4') $$,
  '42501', null,
  'an unverified creator cannot create a video, even in a category they asked for'
);
select throws_ok(
  $$ insert into public.videos (title, source_path) values ('Unverified other', tests.get_supabase_uid('creator_unverified') || '/videos/o.mp4') $$,
  '42501', null,
  'an unverified creator cannot create a video in other'
);

select tests.authenticate_as('creator_a');
select lives_ok(
  $$ insert into public.videos (title, category_id, source_path)
     values ('A new physics', 'natural-sciences-physics', tests.get_supabase_uid('creator_a') || '/videos/new.mp4') $$,
  'a verified creator publishes in an approved category'
);
select lives_ok(
  $$ insert into public.videos (title, type, source_path)
     values ('A spark in other', 'spark', tests.get_supabase_uid('creator_a') || '/videos/spark.mp4') $$,
  'a verified creator publishes a spark in other (the default category)'
);
select throws_ok(
  $$ insert into public.videos (title, category_id, source_path)
     values ('A media', 'media', tests.get_supabase_uid('creator_a') || '/videos/m.mp4') $$,
  '42501', null,
  'a creator cannot publish in a category still pending while they have approved ones'
);
select throws_ok(
  $$ insert into public.videos (title, category_id, source_path)
     values ('A biology', 'natural-sciences-biology', tests.get_supabase_uid('creator_a') || '/videos/b.mp4') $$,
  '42501', null,
  'a creator cannot publish in a category they never asked for'
);
select throws_ok(
  $$ insert into public.videos (creator_id, title, category_id, source_path)
     values (tests.get_supabase_uid('creator_b'), 'Posing as B', 'natural-sciences-biology', tests.get_supabase_uid('creator_b') || '/videos/x.mp4') $$,
  '42501', null,
  'a creator cannot create a video owned by another creator'
);
select throws_ok(
  $$ insert into public.videos (title, source_path, like_count, view_count)
     values ('A inflated', tests.get_supabase_uid('creator_a') || '/videos/i.mp4', 1000, 50000) $$,
  '42501', null,
  'a creator cannot start a video with made-up counters'
);
select throws_ok(
  $$ insert into public.videos (title, source_path, hls_path)
     values ('A fake media', tests.get_supabase_uid('creator_a') || '/videos/f.mp4', 'videos/elsewhere/master.m3u8') $$,
  '42501', null,
  'a creator cannot point a new video at media the worker did not make'
);
select throws_ok(
  $$ insert into public.videos (title, source_path)
     values ('A in B folder', tests.get_supabase_uid('creator_b') || '/videos/theirs.mp4') $$,
  '23514', null,
  'a creator cannot claim another creator''s uploaded file as the source'
);
select lives_ok(
  $$ insert into public.videos (title, source_path, status)
     values ('A says ready', tests.get_supabase_uid('creator_a') || '/videos/ready.mp4', 'ready') $$,
  'a creator may send a status ...'
);
select is(
  (select status from public.videos where id = tests.video_id('A says ready')),
  'processing',
  '... but an uploaded video always starts processing'
);

select tests.authenticate_as('admin_a');
select lives_ok(
  $$ insert into public.videos (title, category_id, external_url)
     values ('Admin lecture', 'business-finance', 'https://www.youtube.com/watch?v=abc') $$,
  'an admin publishes in any category'
);

select tests.authenticate_as_superuser();
select is(
  array(select title from public.videos where creator_id = tests.get_supabase_uid('creator_a') order by title),
  array['A new physics', 'A private draft', 'A public physics', 'A says ready', 'A spark in other'],
  'only the allowed videos were created, all owned by their creator'
);
select is(
  (select count(*)::int from public.videos where creator_id in (tests.get_supabase_uid('learner_a'), tests.get_supabase_uid('creator_unverified'))),
  0,
  'learners and unverified creators own no video'
);

-- update ----------------------------------------------------------------------------

select tests.clear_authentication();
with u as (update public.videos set title = 'Visitor title' returning 1)
select is(count(*)::int, 0, 'a visitor cannot update videos') from u;

select tests.authenticate_as('learner_a');
with u as (update public.videos set title = 'Learner title' where id = tests.video_id('A public physics') returning 1)
select is(count(*)::int, 0, 'a learner cannot update another user''s video') from u;

select tests.authenticate_as('creator_unverified');
with u as (update public.videos set title = 'Unverified title' returning 1)
select is(count(*)::int, 0, 'an unverified creator cannot update others'' videos') from u;

select tests.authenticate_as('creator_b');
with u as (update public.videos set title = 'B took over' where id = tests.video_id('A public physics') returning 1)
select is(count(*)::int, 0, 'a creator cannot update another creator''s public video') from u;
with u as (update public.videos set is_public = true where id = tests.video_id('A private draft') returning 1)
select is(count(*)::int, 0, 'a creator cannot publish another creator''s private video') from u;

select tests.authenticate_as_superuser();
select results_eq(
  $$ select title, is_public from public.videos
     where id in (tests.video_id('A public physics'), tests.video_id('A private draft')) order by title $$,
  $$ values ('A private draft', false), ('A public physics', true) $$,
  'after the denied updates creator A''s videos are unchanged'
);

select tests.authenticate_as('creator_a');
with u as (update public.videos set title = 'A public physics, revised', description = 'Now with examples'
           where id = tests.video_id('A public physics') returning 1)
select is(count(*)::int, 1, 'a creator updates the title and description of their own video') from u;
with u as (update public.videos set is_public = true where id = tests.video_id('A private draft') returning 1)
select is(count(*)::int, 1, 'a creator makes their own private video public') from u;
with u as (update public.videos set category_id = 'natural-sciences-chemistry'
           where id = tests.video_id('A public physics, revised') returning 1)
select is(count(*)::int, 1, 'a creator moves their video to another approved category') from u;
select throws_ok(
  $$ update public.videos set category_id = 'media' where id = tests.video_id('A public physics, revised') $$,
  '42501', null,
  'a creator cannot move their video to a category still pending'
);
select throws_ok(
  $$ update public.videos set category_id = 'natural-sciences-biology' where id = tests.video_id('A public physics, revised') $$,
  '42501', null,
  'a creator cannot move their video to a category they were never given'
);
select throws_ok(
  $$ update public.videos set creator_id = tests.get_supabase_uid('creator_b') where id = tests.video_id('A public physics, revised') $$,
  '42501', null,
  'a creator cannot move their video to another owner'
);
select throws_ok(
  $$ update public.videos set creator_id = tests.get_supabase_uid('learner_a') where id = tests.video_id('A private draft') $$,
  '42501', null,
  'a creator cannot hand their video to a learner'
);
select throws_ok(
  $$ update public.videos set like_count = 999 where id = tests.video_id('A private draft') $$,
  '42501', null,
  'a creator cannot set the like counter of their video'
);
select throws_ok(
  $$ update public.videos set view_count = 1e6 where id = tests.video_id('A private draft') $$,
  '42501', null,
  'a creator cannot set the view counter of their video'
);
select throws_ok(
  $$ update public.videos set status = 'ready' where id = tests.video_id('A says ready') $$,
  '42501', null,
  'a creator cannot mark their video ready (the worker does)'
);
select throws_ok(
  $$ update public.videos set source_path = tests.get_supabase_uid('creator_a') || '/videos/other.mp4'
     where id = tests.video_id('A private draft') $$,
  '42501', null,
  'a creator cannot swap the source file of a published video'
);

select tests.authenticate_as_superuser();
select results_eq(
  $$ select creator_id, category_id, like_count, status from public.videos where title = 'A public physics, revised' $$,
  format('values (%L::uuid, %L, 0, %L)', tests.get_supabase_uid('creator_a'), 'natural-sciences-chemistry', 'ready'),
  'after the refused changes the video keeps its owner, category, counters and status'
);

select tests.authenticate_as('admin_a');
with u as (update public.videos set title = 'B public biology (edited by an admin)'
           where id = tests.video_id('B public biology') returning 1)
select is(count(*)::int, 1, 'an admin updates another creator''s video') from u;
with u as (update public.videos set category_id = 'media' where id = tests.video_id('B private draft') returning 1)
select is(count(*)::int, 1, 'an admin moves a video to any category') from u;
select throws_ok(
  $$ update public.videos set creator_id = tests.get_supabase_uid('admin_a') where id = tests.video_id('B private draft') $$,
  '42501', null,
  'not even an admin moves a video to another owner'
);

-- delete ----------------------------------------------------------------------------

select tests.clear_authentication();
with d as (delete from public.videos returning 1)
select is(count(*)::int, 0, 'a visitor cannot delete videos') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.videos where id = tests.video_id('A private draft') returning 1)
select is(count(*)::int, 0, 'a learner cannot delete another user''s video') from d;

select tests.authenticate_as('learner_b');
with d as (delete from public.videos returning 1)
select is(count(*)::int, 0, 'a second learner cannot delete any video either') from d;

select tests.authenticate_as('creator_unverified');
with d as (delete from public.videos returning 1)
select is(count(*)::int, 0, 'an unverified creator cannot delete others'' videos') from d;

select tests.authenticate_as('creator_b');
with d as (delete from public.videos where creator_id = tests.get_supabase_uid('creator_a') returning 1)
select is(count(*)::int, 0, 'a creator cannot delete another creator''s videos') from d;

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from public.videos where creator_id = tests.get_supabase_uid('creator_a')),
  5,
  'after the denied deletes creator A still has all five videos'
);

select tests.authenticate_as('creator_a');
with d as (delete from public.videos where id = tests.video_id('A spark in other') returning 1)
select is(count(*)::int, 1, 'a creator deletes their own video') from d;

select tests.authenticate_as('admin_a');
with d as (delete from public.videos where id = tests.video_id('B private draft') returning 1)
select is(count(*)::int, 1, 'an admin deletes another creator''s video') from d;

select tests.authenticate_as('admin_b');
with d as (delete from public.videos where id = tests.video_id('A new physics') returning 1)
select is(count(*)::int, 1, 'the second admin deletes videos too') from d;

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from public.videos where title in ('A spark in other', 'B private draft', 'A new physics')),
  0,
  'the allowed deletes removed exactly those videos'
);

-- A verified creator without approved categories ---------------------------------------------

-- Spec: uploads offer the approved categories, else all of the creator's categories.
-- An admin verifies creator_unverified directly (physics still pending) and rejects
-- a second request of theirs.
select tests.authenticate_as_superuser();
insert into public.creator_categories (creator_id, category_id, status)
values (tests.get_supabase_uid('creator_unverified'), 'arts-creativity', 'rejected');
select tests.authenticate_as('admin_a');
with u as (update public.profiles set is_verified = true where id = tests.get_supabase_uid('creator_unverified') returning 1)
select is(count(*)::int, 1, 'an admin verifies a creator without approving their categories') from u;

select tests.authenticate_as('creator_unverified');
select lives_ok(
  $$ insert into public.videos (title, category_id, external_url)
     values ('U physics', 'natural-sciences-physics', 'https://youtu.be/uphysics') $$,
  'a verified creator with no approved category publishes in a category they asked for'
);
select throws_ok(
  $$ insert into public.videos (title, category_id, external_url)
     values ('U arts', 'arts-creativity', 'https://youtu.be/uarts') $$,
  '42501', null,
  'a rejected category is never available'
);
select throws_ok(
  $$ insert into public.videos (title, category_id, external_url)
     values ('U chemistry', 'natural-sciences-chemistry', 'https://youtu.be/uchem') $$,
  '42501', null,
  'a verified creator with no approved category still cannot publish in one they never asked for'
);

-- Rules the database keeps whoever writes ---------------------------------------------------

select tests.authenticate_as_service_role();
select throws_ok(
  format($$ insert into public.videos (creator_id, title, type, status, source_path, duration_seconds)
            values (%L, 'Too long spark', 'spark', 'ready', %L, 61) $$,
         tests.get_supabase_uid('creator_a'), tests.get_supabase_uid('creator_a') || '/videos/long.mp4'),
  '23514', null,
  'a spark of 60 seconds or more is refused, even from the worker'
);
select throws_ok(
  format($$ insert into public.videos (creator_id, title, status) values (%L, 'No source', 'ready') $$,
         tests.get_supabase_uid('creator_a')),
  '23514', null,
  'a ready video needs a source file or a link'
);

select tests.authenticate_as('creator_a');
select throws_ok(
  $$ insert into public.videos (title, source_path) values ('   ', tests.get_supabase_uid('creator_a') || '/videos/blank.mp4') $$,
  '23514', null,
  'a video title cannot be blank'
);

select tests.authenticate_as_superuser();
select * from finish();
rollback;
