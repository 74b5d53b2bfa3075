-- 180 · Quotes of ADR 0014: video responses hidden until ready, moments, posters.
-- Proves, for every identity: a video response still processing is seen by its author
-- and admins only, and by everyone once ready; a text quote is seen with its video;
-- nobody quotes a video they cannot see; a learner (not only a creator) quotes with a
-- video response; the poster and status are the server's; only the author edits a
-- quote's moment; another user cannot delete a quote, its author and admins can.
begin;
select plan(24);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);

-- learner_a's video response, still processing; learner_b's text quote.
select tests.authenticate_as('learner_a');
insert into public.quotes (video_id, type, body, response_source_path, moment_seconds)
values (tests.video_id('A public'), 'video', 'A answers', tests.get_supabase_uid('learner_a') || '/quotes/a.mp4', 12.5);
select tests.authenticate_as('learner_b');
insert into public.quotes (video_id, body) values (tests.video_id('A public'), 'B thinks');

-- select · a response processing --------------------------------------------------------

select tests.clear_authentication();
select is(array(select body from public.quotes), array['B thinks'], 'a visitor does not see a response still processing');
select tests.authenticate_as('learner_b');
select is(array(select body from public.quotes order by body), array['B thinks'], 'another learner does not see it');
select tests.authenticate_as('creator_a');
select is(array(select body from public.quotes order by body), array['B thinks'], 'the quoted video''s creator does not see it');
select tests.authenticate_as('creator_unverified');
select is(array(select body from public.quotes order by body), array['B thinks'], 'an unverified creator does not see it');
select tests.authenticate_as('learner_a');
select is(
  (select response_status from public.quotes where body = 'A answers'), 'processing',
  'its author sees their response as processing'
);
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.quotes), 2, 'an admin sees every quote, processing ones too');

-- the worker marks it ready (trusted, as the service role is) ---------------------------

select tests.authenticate_as_superuser();
update public.quotes
   set response_status = 'ready', response_hls_path = 'quotes/' || id || '/hls/master.m3u8',
       response_mp4_path = 'quotes/' || id || '/video.mp4', response_poster_path = 'quotes/' || id || '/poster.jpg'
 where body = 'A answers';

select tests.clear_authentication();
select is(array(select body from public.quotes order by body), array['A answers', 'B thinks'], 'a visitor sees the response once ready');
select tests.authenticate_as('learner_b');
select is((select count(*)::int from public.quotes), 2, 'another learner sees it once ready');
select is(
  (select moment_seconds from public.quotes where body = 'A answers'), 12.500::numeric,
  'the moment of the original is kept'
);

-- insert ------------------------------------------------------------------------------

select tests.authenticate_as('learner_b');
select throws_ok(
  $$ insert into public.quotes (video_id, body) values (tests.video_id('A private'), 'Sneaky') $$,
  '42501', null, 'a learner cannot quote a video they cannot see'
);
select throws_ok(
  $$ insert into public.quotes (video_id, type, response_source_path)
     values (tests.video_id('A private'), 'video', tests.get_supabase_uid('learner_b') || '/quotes/b.mp4') $$,
  '42501', null, 'a learner cannot answer a video they cannot see with a video'
);
select throws_ok(
  $$ insert into public.quotes (video_id, type, response_source_path, response_poster_path)
     values (tests.video_id('A public'), 'video', tests.get_supabase_uid('learner_b') || '/quotes/b.mp4', 'quotes/x/poster.jpg') $$,
  '42501', null, 'a learner cannot set the poster of a response'
);
select throws_ok(
  $$ insert into public.quotes (video_id, body, moment_seconds) values (tests.video_id('A public'), 'Negative', -1) $$,
  '23514', null, 'a moment is not negative'
);
select tests.authenticate_as('creator_unverified');
select lives_ok(
  $$ insert into public.quotes (video_id, type, response_source_path)
     values (tests.video_id('A public'), 'video', tests.get_supabase_uid('creator_unverified') || '/quotes/u.mp4') $$,
  'an unverified creator answers with a video (any signed-in user may)'
);
select tests.authenticate_as('creator_b');
select throws_ok(
  $$ insert into public.quotes (video_id, body) values (tests.video_id('A private'), 'B on private') $$,
  '42501', null, 'another creator cannot quote a private video'
);
select tests.authenticate_as('creator_a');
select lives_ok(
  $$ insert into public.quotes (video_id, body) values (tests.video_id('A private'), 'A on own private') $$,
  'a creator quotes their own private video'
);

-- update ------------------------------------------------------------------------------

select tests.authenticate_as('learner_b');
with u as (update public.quotes set moment_seconds = 1 where body = 'A answers' returning 1)
select is(count(*)::int, 0, 'a learner cannot edit another user''s quote') from u;
select tests.authenticate_as('learner_a');
with u as (update public.quotes set moment_seconds = 3 where body = 'A answers' returning 1)
select is(count(*)::int, 1, 'the author moves the moment of their quote') from u;
select throws_ok(
  $$ update public.quotes set response_poster_path = 'quotes/other/poster.jpg' where body = 'A answers' $$,
  '42501', null, 'the author cannot change the poster'
);
select throws_ok(
  $$ update public.quotes set response_status = 'processing' where body = 'A answers' $$,
  '42501', null, 'the author cannot change the status of their response'
);

-- delete ------------------------------------------------------------------------------

select tests.authenticate_as('learner_b');
with d as (delete from public.quotes where body = 'A answers' returning 1)
select is(count(*)::int, 0, 'another learner cannot delete a quote') from d;
select tests.authenticate_as('creator_a');
with d as (delete from public.quotes where body = 'A answers' returning 1)
select is(count(*)::int, 0, 'the quoted video''s creator cannot delete a quote') from d;
select tests.authenticate_as('admin_a');
with d as (delete from public.quotes where body = 'B thinks' returning 1)
select is(count(*)::int, 1, 'an admin deletes any quote') from d;
select tests.authenticate_as('learner_a');
with d as (delete from public.quotes where body = 'A answers' returning 1)
select is(count(*)::int, 1, 'the author deletes their own quote') from d;

select * from finish();
rollback;
