-- 360 · Notification emails: preferences, the outbox, digests.
-- Proves: each user reads and writes only their own notification preferences (anon
-- nothing); the outbox, the digest items and their functions are the service role's
-- only (learners, creators, admins and visitors neither read nor write them); a
-- notification queues one email when its recipient chose email (or by the default), none
-- when they chose the app only, a digest item when they chose the digest; a digest is
-- queued once a day at most.
begin;
select plan(27);

select tests.create_cast();
select tests.create_video('creator_a', 'Optics', true);

-- Preferences -----------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.notification_preferences (user_id, type, channel)
     values (tests.get_supabase_uid('learner_a'), 'video_published', 'digest') $$,
  'a learner sets their own preference'
);
select throws_ok(
  $$ insert into public.notification_preferences (user_id, type, channel)
     values (tests.get_supabase_uid('learner_b'), 'video_published', 'email') $$,
  '42501', null, 'but not another learner''s'
);
select throws_ok(
  $$ insert into public.notification_preferences (user_id, type, channel)
     values (tests.get_supabase_uid('learner_a'), 'followed', 'pigeon') $$,
  '23514', null, 'a channel is in_app, email or digest'
);
select is(
  public.notification_channel(tests.get_supabase_uid('learner_a'), 'video_published'), 'digest',
  'the choice is in force'
);
select is(
  public.notification_channel(tests.get_supabase_uid('learner_a'), 'application_reviewed'), 'email',
  'without a choice, a reviewed application comes by email'
);
select is(
  public.notification_channel(tests.get_supabase_uid('learner_a'), 'video_liked'), 'in_app',
  'and a like in the app only'
);

select tests.authenticate_as('creator_a');
insert into public.notification_preferences (user_id, type, channel)
values (tests.get_supabase_uid('creator_a'), 'video_commented', 'email'),
       (tests.get_supabase_uid('creator_a'), 'video_liked', 'digest'),
       (tests.get_supabase_uid('creator_a'), 'followed', 'in_app');
select is((select count(*)::int from public.notification_preferences), 3, 'a creator reads only their own preferences');
update public.notification_preferences set channel = 'email' where user_id = tests.get_supabase_uid('learner_a');
select tests.authenticate_as('learner_a');
select is(
  (select channel from public.notification_preferences where type = 'video_published'), 'digest',
  'another user''s update changes nothing of theirs'
);
select tests.authenticate_as('learner_b');
select is((select count(*)::int from public.notification_preferences), 0, 'another learner reads none of them');
delete from public.notification_preferences;
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.notification_preferences), 0, 'an admin reads nobody''s preferences');
select tests.clear_authentication();
select throws_ok($$ select * from public.notification_preferences $$, '42501', null, 'a visitor reads no preferences');
select tests.authenticate_as_superuser();
select is((select count(*)::int from public.notification_preferences), 4, 'nobody deleted another''s preferences');

-- Events queue emails per the recipient's choice --------------------------------------

select tests.authenticate_as('learner_a');
insert into public.comments (video_id, body) values (tests.video_id('Optics'), 'Clear as day');
insert into public.video_likes (video_id) values (tests.video_id('Optics'));
insert into public.follows (creator_id) values (tests.get_supabase_uid('creator_a'));

select tests.authenticate_as_superuser();
select results_eq(
  $$ select n.type from public.email_outbox o join public.notifications n on n.id = o.notification_id
      where o.recipient_id = tests.get_supabase_uid('creator_a') order by n.type $$,
  $$ values ('application_reviewed'), ('video_commented') $$,
  'the reviewed application (by default) and the comment (email) queue one email each; the like (digest) and the follower (in_app) none'
);
select results_eq(
  $$ select n.type from public.notification_digest_items i join public.notifications n on n.id = i.notification_id
      where i.recipient_id = tests.get_supabase_uid('creator_a') $$,
  $$ values ('video_liked') $$,
  'the like waits for the digest'
);

-- Writing a notification twice (its group key) queues nothing twice.
select tests.authenticate_as('learner_a');
delete from public.follows where creator_id = tests.get_supabase_uid('creator_a');
select tests.authenticate_as('creator_a');
update public.notification_preferences set channel = 'email' where type = 'followed';
select tests.authenticate_as('learner_a');
insert into public.follows (creator_id) values (tests.get_supabase_uid('creator_a'));
select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from public.email_outbox o join public.notifications n on n.id = o.notification_id
    where o.recipient_id = tests.get_supabase_uid('creator_a') and n.type = 'followed'),
  0, 'following again tells nobody twice, so it emails nobody either'
);

-- The outbox is the service role's ---------------------------------------------------

select tests.authenticate_as('creator_a');
select throws_ok($$ select * from public.email_outbox $$, '42501', null, 'a creator cannot read the outbox, even their own emails');
select throws_ok($$ select * from public.notification_digest_items $$, '42501', null, 'nor the digest items');
select throws_ok(
  $$ insert into public.email_outbox (recipient_id, kind) values (tests.get_supabase_uid('creator_a'), 'digest') $$,
  '42501', null, 'nor queue an email'
);
select tests.authenticate_as('learner_a');
select throws_ok($$ delete from public.email_outbox $$, '42501', null, 'a learner cannot delete emails');
select throws_ok(
  $$ select public.notification_email_address(tests.get_supabase_uid('creator_a')) $$,
  '42501', null, 'nor read anyone''s address through the worker''s function'
);
select tests.authenticate_as('admin_a');
select throws_ok($$ select * from public.email_outbox $$, '42501', null, 'an admin cannot read the outbox');
select throws_ok($$ select public.queue_notification_digests() $$, '42501', null, 'nor queue digests');
select tests.clear_authentication();
select throws_ok($$ select * from public.email_outbox $$, '42501', null, 'a visitor cannot read the outbox');

-- Digests ----------------------------------------------------------------------------

select tests.authenticate_as_service_role();
select is(public.queue_notification_digests(), 0, 'a digest item waits until it is a day old');
select tests.authenticate_as_superuser();
update public.notification_digest_items set created_at = now() - interval '25 hours';
select tests.authenticate_as_service_role();
select is(public.queue_notification_digests(), 1, 'then one digest is queued for its recipient');
select is(public.queue_notification_digests(), 0, 'and only once');
select is(
  public.notification_email_address(tests.get_supabase_uid('creator_a')),
  tests.get_supabase_user('creator_a') ->> 'email',
  'the worker reads the recipient''s address'
);

select * from finish();
rollback;
