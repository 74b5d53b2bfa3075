-- 090 · Video views and the media job queue.
-- Proves: views are written only through public.record_view(), which counts a visible
-- video once per viewer and hour (and never a private video for someone who cannot
-- see it); signed-in users call it themselves, visitors' views go through the server
-- (service role) with a key it derives; view rows are read only by the video's
-- creator and admins; nobody edits them. The media queue belongs to the service role: API callers cannot touch it,
-- uploads enqueue exactly one job each.
begin;
select plan(42);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);
select tests.create_video('creator_b', 'B public', true);

-- record_view -------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select is(public.record_view(tests.video_id('A public')), true, 'a learner''s view of a public video counts');
select is(public.record_view(tests.video_id('A public')), false, 'the same learner''s second view within the hour does not');
select is(public.record_view(tests.video_id('A private')), false, 'a learner''s view of a private video is not counted');

select tests.authenticate_as('learner_b');
select is(public.record_view(tests.video_id('A public'), 'made-up-key'), true, 'a second learner''s view counts');
select is(public.record_view(tests.video_id('A public'), 'another-made-up-key'), false,
  'a signed-in viewer cannot count twice by sending a different viewer key');

select tests.authenticate_as('creator_a');
select is(public.record_view(tests.video_id('A private')), true, 'a creator''s view of their own private video counts');

select tests.clear_authentication();
select throws_ok(
  $$ select public.record_view(tests.video_id('B public'), 'visitor-1') $$,
  '42501', null,
  'a visitor cannot count views directly (any invented key would count)'
);

-- Visitors' views are counted by the server, with a key it derives, as the service role.
select tests.authenticate_as_service_role();
select is(public.record_view(tests.video_id('B public'), 'visitor-1'), true, 'the server counts a visitor''s view under its key');
select is(public.record_view(tests.video_id('B public'), 'visitor-1'), false, 'the same visitor key counts once an hour');
select is(public.record_view(tests.video_id('A private'), 'visitor-1'), false, 'a visitor''s view of a private video is not counted');
select throws_ok(
  $$ select public.record_view(tests.video_id('B public')) $$,
  '22004', null,
  'a visitor''s view needs a viewer key'
);

select tests.authenticate_as_superuser();
select results_eq(
  $$ select v.title, v.view_count::int, (select count(*)::int from public.video_views w where w.video_id = v.id)
     from public.videos v order by v.title $$,
  $$ values ('A private', 1, 1), ('A public', 2, 2), ('B public', 1, 1) $$,
  'every view_count equals count(*) of its counted views'
);

-- video_views · select ---------------------------------------------------------------

select tests.clear_authentication();
select is((select count(*)::int from public.video_views), 0, 'a visitor reads no views');

select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.video_views), 0, 'a learner reads no views, not even their own');

select tests.authenticate_as('creator_unverified');
select is((select count(*)::int from public.video_views), 0, 'an unverified creator reads no views');

select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.video_views), 3, 'a creator reads the views of their own videos');

select tests.authenticate_as('creator_b');
select is(
  array(select v.title from public.video_views w join public.videos v on v.id = w.video_id),
  array['B public'],
  'another creator reads only the views of their own videos'
);

select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.video_views), 4, 'an admin reads every view');

-- video_views · insert, update, delete (only record_view writes) -----------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.video_views (video_id, viewer_key, viewed_hour) values (tests.video_id('A public'), 'anon:x', now()) $$,
  '42501', null,
  'a visitor cannot insert views directly'
);

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ insert into public.video_views (video_id, viewer_key, viewed_hour) values (tests.video_id('A public'), 'bot', now()) $$,
  '42501', null,
  'a learner cannot insert views directly'
);

select tests.authenticate_as('creator_a');
select throws_ok(
  $$ insert into public.video_views (video_id, viewer_key, viewed_hour)
     select tests.video_id('A public'), 'bot-' || g, now() from generate_series(1, 100) g $$,
  '42501', null,
  'a creator cannot inflate the views of their own video'
);
with u as (update public.video_views set viewed_hour = viewed_hour - interval '1 day' returning 1)
select is(count(*)::int, 0, 'a creator cannot edit the views of their video') from u;
with d as (delete from public.video_views returning 1)
select is(count(*)::int, 0, 'a creator cannot delete the views of their video') from d;

select tests.authenticate_as('admin_a');
with u as (update public.video_views set viewer_key = 'changed' returning 1)
select is(count(*)::int, 0, 'an admin cannot edit views') from u;
with d as (delete from public.video_views returning 1)
select is(count(*)::int, 0, 'an admin cannot delete views') from d;

select tests.authenticate_as_superuser();
select is((select count(*)::int from public.video_views), 4, 'after the denied writes the four counted views remain');

-- media_jobs -------------------------------------------------------------------------

-- The cast's videos are ready already; a new upload queues a job.
select tests.authenticate_as('creator_a');
select lives_ok(
  $$ insert into public.videos (title, source_path) values ('A fresh upload', tests.get_supabase_uid('creator_a') || '/videos/fresh.mp4') $$,
  'a verified creator uploads a video'
);
select lives_ok(
  $$ insert into public.videos (title, external_url) values ('A link', 'https://youtu.be/xyz') $$,
  'a verified creator publishes a YouTube link'
);

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.quotes (video_id, type, response_source_path)
     values (tests.video_id('A public'), 'video', tests.get_supabase_uid('learner_a') || '/quotes/reply.mp4') $$,
  'a learner posts a video quote'
);

select tests.authenticate_as_service_role();
select results_eq(
  $$ select kind, status from public.media_jobs
     where video_id = tests.video_id('A fresh upload')
        or quote_id = (select id from public.quotes where response_source_path like '%/quotes/reply.mp4')
     order by kind $$,
  $$ values ('transcode_quote', 'queued'), ('transcode_video', 'queued') $$,
  'an upload and a video quote each queue one transcoding job, which the service role reads'
);
select is(
  (select count(*)::int from public.media_jobs where video_id = tests.video_id('A link')),
  0,
  'a YouTube link queues nothing'
);
with u as (update public.media_jobs set status = 'running', locked_by = 'worker-1', locked_until = now() + interval '5 minutes',
                                      attempts = attempts + 1
           where video_id = tests.video_id('A fresh upload') and status = 'queued' returning 1)
select is(count(*)::int, 1, 'the service role (the worker) takes a job') from u;

select tests.clear_authentication();
select throws_ok($$ select * from public.media_jobs $$, '42501', null, 'a visitor cannot read the media queue');
select throws_ok(
  $$ insert into public.media_jobs (kind, video_id) values ('transcode_video', tests.video_id('A public')) $$,
  '42501', null,
  'a visitor cannot queue jobs'
);

select tests.authenticate_as('learner_a');
select throws_ok($$ select * from public.media_jobs $$, '42501', null, 'a learner cannot read the media queue');
select throws_ok(
  $$ delete from public.media_jobs $$,
  '42501', null,
  'a learner cannot delete jobs'
);

select tests.authenticate_as('creator_a');
select throws_ok($$ select * from public.media_jobs $$, '42501', null, 'a creator cannot read the jobs of their own uploads');
select throws_ok(
  $$ update public.media_jobs set status = 'done' $$,
  '42501', null,
  'a creator cannot mark their job done'
);
select throws_ok(
  $$ insert into public.media_jobs (kind, video_id) values ('transcode_video', tests.video_id('A public')) $$,
  '42501', null,
  'a creator cannot queue extra jobs'
);

select tests.authenticate_as('admin_a');
select throws_ok($$ select * from public.media_jobs $$, '42501', null, 'an admin cannot read the media queue through the API either');
select throws_ok(
  $$ update public.media_jobs set attempts = 0 $$,
  '42501', null,
  'an admin cannot change jobs'
);

select tests.authenticate_as_superuser();
select results_eq(
  $$ select status, locked_by from public.media_jobs where video_id = tests.video_id('A fresh upload') $$,
  $$ values ('running', 'worker-1') $$,
  'after the refused writes the job is as the worker left it'
);

select * from finish();
rollback;
