-- 280 · "More qualities coming" (ADR 0025).
-- Proves, for every identity: the flag that says a ready video (or video response) is
-- still getting renditions is readable wherever the row is, set only by the server
-- (refused on insert and kept on update for owners, other users and admins alike,
-- written by the service role), and only ever on a ready row.
begin;
select plan(16);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);

-- The worker's phase 1: ready, one rendition, more to come.
select tests.authenticate_as_service_role();
update public.videos set more_qualities_pending = true where title = 'A public';

-- select ------------------------------------------------------------------------------

select tests.clear_authentication();
select is((select more_qualities_pending from public.videos where title = 'A public'), true, 'a visitor reads the flag');
select tests.authenticate_as('learner_a');
select is((select more_qualities_pending from public.videos where title = 'A public'), true, 'a learner reads it');
select tests.authenticate_as('creator_unverified');
select is((select more_qualities_pending from public.videos where title = 'A public'), true, 'an unverified creator reads it');
select tests.authenticate_as('creator_a');
select is((select more_qualities_pending from public.videos where title = 'A public'), true, 'its creator reads it');

-- update: nobody but the server --------------------------------------------------------

select throws_ok(
  $$ update public.videos set more_qualities_pending = false where title = 'A public' $$,
  '42501', null, 'its creator cannot clear it'
);
select tests.authenticate_as('admin_a');
select throws_ok(
  $$ update public.videos set more_qualities_pending = false where title = 'A public' $$,
  '42501', null, 'an admin cannot clear it either (it is the worker''s)'
);
select tests.authenticate_as('learner_a');
update public.videos set more_qualities_pending = false where title = 'A public';
select tests.authenticate_as_service_role();
select is(
  (select more_qualities_pending from public.videos where title = 'A public'), true,
  'a learner''s update reaches no row'
);

-- insert -------------------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select throws_ok(
  $$ insert into public.videos (title, description, type, source_path, more_qualities_pending)
     values ('Sneaky', 'x', 'video', tests.get_supabase_uid('creator_a') || '/videos/s.mp4', true) $$,
  '42501', null, 'a creator cannot insert a video that says more qualities are coming'
);
select lives_ok(
  $$ insert into public.videos (title, description, type, source_path)
     values ('Honest', 'x', 'video', tests.get_supabase_uid('creator_a') || '/videos/h.mp4') $$,
  'a creator inserts a video without it'
);
select is((select more_qualities_pending from public.videos where title = 'Honest'), false, 'it starts false');

-- only on a ready row ----------------------------------------------------------------

select tests.authenticate_as_service_role();
select throws_ok(
  $$ update public.videos set more_qualities_pending = true where title = 'Honest' $$,
  '23514', null, 'a video still processing cannot be waiting for more qualities'
);
select lives_ok(
  $$ update public.videos set more_qualities_pending = false where title = 'A public' $$,
  'the service role clears it when the ladder is complete'
);

-- video responses ------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ insert into public.quotes (video_id, type, response_source_path, response_more_qualities_pending)
     values (tests.video_id('A public'), 'video', tests.get_supabase_uid('learner_a') || '/quotes/a.mp4', true) $$,
  '42501', null, 'a learner cannot insert a response that says more qualities are coming'
);
insert into public.quotes (video_id, type, body, response_source_path)
values (tests.video_id('A public'), 'video', 'A answers', tests.get_supabase_uid('learner_a') || '/quotes/a.mp4');
select tests.authenticate_as_service_role();
select throws_ok(
  $$ update public.quotes set response_more_qualities_pending = true where body = 'A answers' $$,
  '23514', null, 'a response still processing cannot be waiting for more qualities'
);
update public.quotes
   set response_status = 'ready', response_hls_path = 'quotes/' || id || '/hls/master.m3u8',
       response_mp4_path = 'quotes/' || id || '/video-360p.mp4', response_more_qualities_pending = true
 where body = 'A answers';
select tests.authenticate_as('learner_a');
select throws_ok(
  $$ update public.quotes set response_more_qualities_pending = false where body = 'A answers' $$,
  '42501', null, 'its author cannot clear it'
);
select is(
  (select response_more_qualities_pending from public.quotes where body = 'A answers'), true,
  'its author reads it'
);

select * from finish();
rollback;
