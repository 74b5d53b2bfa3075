-- 290 · Automatic caption jobs (ADRs 0022 and 0037).
-- Proves: the media queue takes a caption_video job for a video (never for a quote, never
-- without a video), one open caption job per video beside its transcode job, the service role
-- alone queues them, and API roles (anon, learner, creator, unverified creator, admin) can
-- neither read nor queue one.
begin;
select plan(12);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);

select tests.authenticate_as('creator_a');
select lives_ok(
  $$ insert into public.videos (title, source_path) values ('Spoken', tests.get_supabase_uid('creator_a') || '/videos/spoken.mp4') $$,
  'a verified creator uploads a video (its transcode job is queued)'
);

select tests.authenticate_as_service_role();
select lives_ok(
  $$ insert into public.media_jobs (kind, video_id) values ('caption_video', tests.video_id('Spoken')) $$,
  'the service role queues a caption job beside the open transcode job'
);
select results_eq(
  $$ select kind, status from public.media_jobs where video_id = tests.video_id('Spoken') order by id $$,
  $$ values ('transcode_video', 'queued'), ('caption_video', 'queued') $$,
  'the video has one open job of each kind'
);
select throws_ok(
  $$ insert into public.media_jobs (kind, video_id) values ('caption_video', tests.video_id('Spoken')) $$,
  '23505', null,
  'a second open caption job for the same video is refused'
);
select throws_ok(
  $$ insert into public.media_jobs (kind) values ('caption_video') $$,
  '23514', null,
  'a caption job needs a video'
);
select throws_ok(
  $$ insert into public.media_jobs (kind, video_id) values ('subtitle_everything', tests.video_id('Spoken')) $$,
  '23514', null,
  'an unknown kind is refused'
);
update public.media_jobs set status = 'done' where video_id = tests.video_id('Spoken') and kind = 'caption_video';
select lives_ok(
  $$ insert into public.media_jobs (kind, video_id) values ('caption_video', tests.video_id('Spoken')) $$,
  'once the first is done, the video may be captioned again'
);

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.media_jobs (kind, video_id) values ('caption_video', tests.video_id('A public')) $$,
  '42501', null, 'a visitor cannot queue a caption job'
);
select tests.authenticate_as('learner_a');
select throws_ok($$ select * from public.media_jobs where kind = 'caption_video' $$, '42501', null, 'a learner cannot read caption jobs');
select tests.authenticate_as('creator_a');
select throws_ok(
  $$ insert into public.media_jobs (kind, video_id) values ('caption_video', tests.video_id('A public')) $$,
  '42501', null, 'a creator cannot caption their own video through the queue'
);
select tests.authenticate_as('creator_unverified');
select throws_ok($$ select * from public.media_jobs $$, '42501', null, 'an unverified creator cannot read the queue');
select tests.authenticate_as('admin_a');
select throws_ok($$ select * from public.media_jobs $$, '42501', null, 'an admin cannot read the queue either');

select * from finish();
rollback;
