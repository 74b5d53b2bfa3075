-- 300 · Notifications.
-- Proves: only the recipient reads their notifications and marks them read (read_at and
-- nothing else); nobody inserts or deletes one through the API (anon, learners, creators,
-- admins); the database writes each event once, never to the one acting, and forgets
-- events about a video made private or by a banned user.
begin;
select plan(26);

select tests.create_cast();
select tests.create_video('creator_a', 'Optics', true);

-- learner_a follows creator_a; creator_a's next upload becomes ready.
select tests.authenticate_as('learner_a');
insert into public.follows (creator_id) values (tests.get_supabase_uid('creator_a'));
select tests.authenticate_as('creator_a');
insert into public.videos (title, source_path) values ('Waves', tests.get_supabase_uid('creator_a') || '/videos/waves.mp4');
select tests.authenticate_as_service_role();
update public.videos set status = 'ready', hls_path = 'videos/x/master.m3u8' where id = tests.video_id('Waves');
-- A second transition to ready (a retried job) tells nobody again.
update public.videos set status = 'processing' where id = tests.video_id('Waves');
update public.videos set status = 'ready' where id = tests.video_id('Waves');

-- Reading ---------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select results_eq(
  $$ select type, video_id from public.notifications order by type $$,
  $$ values ('video_published', tests.video_id('Waves')) $$,
  'a follower is told once that the followed creator''s upload is ready'
);
select tests.authenticate_as('creator_a');
select results_eq(
  $$ select type from public.notifications where type in ('followed', 'video_processed') order by type $$,
  $$ values ('followed'), ('video_processed') $$,
  'the creator reads their own: the follow and the finished upload'
);
select is(
  (select count(*)::int from public.notifications where recipient_id <> tests.get_supabase_uid('creator_a')),
  0, 'a creator reads nobody else''s notifications'
);
select tests.authenticate_as('learner_b');
select is((select count(*)::int from public.notifications), 0, 'another learner reads none of them');
select tests.authenticate_as('admin_a');
select is(
  (select count(*)::int from public.notifications where recipient_id <> tests.get_supabase_uid('admin_a')),
  0, 'an admin reads nobody else''s notifications either'
);
select tests.clear_authentication();
select throws_ok($$ select * from public.notifications $$, '42501', null, 'a visitor cannot read notifications');

-- Marking read ----------------------------------------------------------------------

select tests.authenticate_as('learner_b');
update public.notifications set read_at = now() where recipient_id = tests.get_supabase_uid('learner_a');
select tests.authenticate_as('learner_a');
select is(
  (select count(*)::int from public.notifications where read_at is null), 1,
  'another learner''s update marks nothing of learner_a''s read'
);
select lives_ok(
  $$ update public.notifications set read_at = now() $$,
  'the recipient marks their notifications read'
);
select is((select count(*)::int from public.notifications where read_at is null), 0, 'and they are read');
select throws_ok(
  $$ update public.notifications set type = 'followed' $$,
  '42501', null, 'the recipient changes nothing but read_at'
);
select throws_ok(
  $$ update public.notifications set recipient_id = tests.get_supabase_uid('learner_b') $$,
  '42501', null, 'nor hands a notification to someone else'
);

-- Writing -----------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ insert into public.notifications (recipient_id, type) values (tests.get_supabase_uid('learner_b'), 'followed') $$,
  '42501', null, 'a learner cannot write a notification'
);
select throws_ok($$ delete from public.notifications $$, '42501', null, 'nor delete one');
select tests.authenticate_as('creator_a');
select throws_ok(
  $$ insert into public.notifications (recipient_id, type) values (tests.get_supabase_uid('creator_a'), 'followed') $$,
  '42501', null, 'a creator cannot write one, even to themselves'
);
select tests.authenticate_as('admin_a');
select throws_ok(
  $$ insert into public.notifications (recipient_id, type) values (tests.get_supabase_uid('learner_a'), 'followed') $$,
  '42501', null, 'an admin cannot write one'
);
select throws_ok($$ delete from public.notifications $$, '42501', null, 'nor delete one');
select throws_ok(
  $$ select public.notify(tests.get_supabase_uid('learner_a'), 'followed') $$,
  '42501', null, 'the writer function is not callable through the API'
);
select tests.clear_authentication();
select throws_ok(
  $$ insert into public.notifications (recipient_id, type) values (tests.get_supabase_uid('learner_a'), 'followed') $$,
  '42501', null, 'a visitor cannot write one'
);

-- Events ------------------------------------------------------------------------------

-- Nobody is told about their own actions.
select tests.authenticate_as('creator_a');
insert into public.comments (video_id, body) values (tests.video_id('Optics'), 'My own note');
insert into public.video_likes (video_id) values (tests.video_id('Optics'));
select is(
  (select count(*)::int from public.notifications where video_id = tests.video_id('Optics')),
  0, 'a creator''s own comment and like on their video tell nobody'
);

-- Likes are grouped: one per video and hour.
select tests.authenticate_as('learner_a');
insert into public.video_likes (video_id) values (tests.video_id('Optics'));
select tests.authenticate_as('learner_b');
insert into public.video_likes (video_id) values (tests.video_id('Optics'));
select tests.authenticate_as('creator_a');
select is(
  (select count(*)::int from public.notifications where type = 'video_liked' and video_id = tests.video_id('Optics')),
  1, 'two likes in the same hour are one notification'
);

-- Both unliked: the group goes.
select tests.authenticate_as('learner_a');
delete from public.video_likes where video_id = tests.video_id('Optics');
select tests.authenticate_as('learner_b');
delete from public.video_likes where video_id = tests.video_id('Optics');
select tests.authenticate_as('creator_a');
select is(
  (select count(*)::int from public.notifications where type = 'video_liked'),
  0, 'when every like of the hour is taken back, its notification goes'
);

-- A comment, then the video made private: the follower's notification goes, the creator's stays.
select tests.authenticate_as('learner_b');
insert into public.comments (video_id, body) values (tests.video_id('Waves'), 'Lovely');
select tests.authenticate_as('creator_a');
update public.videos set is_public = false where id = tests.video_id('Waves');
select tests.authenticate_as('learner_a');
select is(
  (select count(*)::int from public.notifications where video_id = tests.video_id('Waves')),
  0, 'a video made private leaves no follower a notification about it'
);
select tests.authenticate_as('creator_a');
select is(
  (select count(*)::int from public.notifications where type = 'video_commented'),
  1, 'its creator keeps theirs'
);

-- A banned user's events disappear.
select tests.authenticate_as_superuser();
update auth.users set banned_until = now() + interval '1 day' where id = tests.get_supabase_uid('learner_b');
select tests.authenticate_as('creator_a');
select is(
  (select count(*)::int from public.notifications where actor_id = tests.get_supabase_uid('learner_b')),
  0, 'a banned user''s comment notification disappears'
);

-- Application review: the creator is told with the outcome; the admin acting is not.
select tests.authenticate_as('creator_unverified');
select ok(
  not exists (select 1 from public.notifications where type = 'application_reviewed'),
  'an unreviewed application tells nobody'
);
select tests.authenticate_as('admin_a');
select public.review_creator_application(
  (select a.id from public.creator_applications a where a.creator_id = tests.get_supabase_uid('creator_unverified') and a.status = 'pending'),
  false, 'Please add a portfolio'
);
select tests.authenticate_as('creator_unverified');
select results_eq(
  $$ select type, outcome, actor_id from public.notifications $$,
  $$ values ('application_reviewed', 'rejected', null::uuid) $$,
  'the applicant is told the outcome, without the name of the admin'
);

select * from finish();
rollback;
