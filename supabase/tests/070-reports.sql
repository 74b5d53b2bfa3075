-- 070 · Reports.
-- Proves: reporting needs a signed-in user, reports only content the reporter can
-- see, only as themselves and only as pending; a report is visible only to its
-- reporter and to admins (not to other users, not to the reported creator); only
-- admins handle reports (the reviewer is recorded, not typed in) and delete them;
-- setting 'removed' removes the content and closes the other open reports about it.
begin;
select plan(38);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);
select tests.create_video('creator_b', 'B public', true);
insert into public.comments (video_id, user_id, body)
values (tests.video_id('B public'), tests.get_supabase_uid('learner_b'), 'Rude comment');
insert into public.quotes (video_id, user_id, body)
values (tests.video_id('B public'), tests.get_supabase_uid('learner_b'), 'Spammy quote');

-- Learner B already reported B public.
insert into public.reports (reporter_id, content_type, content_id, reason, details)
values (tests.get_supabase_uid('learner_b'), 'video', tests.video_id('B public'), 'spam', 'B: spam video');

-- insert ----------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.reports (reporter_id, content_type, content_id, reason)
     values (tests.get_supabase_uid('learner_a'), 'video', tests.video_id('A public'), 'spam') $$,
  '42501', null,
  'a visitor cannot report content (reporting requires a signed-in user)'
);

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.reports (content_type, content_id, reason, details)
     values ('video', tests.video_id('A public'), 'misinformation', 'A: wrong formula') $$,
  'a learner reports a video'
);
select lives_ok(
  $$ insert into public.reports (content_type, content_id, reason, details)
     values ('comment', tests.comment_id('Rude comment'), 'harmful', 'A: rude comment') $$,
  'a learner reports a comment'
);
select lives_ok(
  $$ insert into public.reports (content_type, content_id, reason, details)
     values ('quote', tests.quote_id('Spammy quote'), 'spam', 'A: spammy quote') $$,
  'a learner reports a quote'
);
select lives_ok(
  $$ insert into public.reports (content_type, content_id, reason, details)
     values ('video', tests.video_id('B public'), 'copyright', 'A: stolen video') $$,
  'a learner reports a video someone else reported too'
);
select throws_ok(
  $$ insert into public.reports (content_type, content_id, reason, details)
     values ('video', tests.video_id('A public'), 'spam', 'A: again') $$,
  '23505', null,
  'a learner has one open report per content'
);
select throws_ok(
  $$ insert into public.reports (reporter_id, content_type, content_id, reason, details)
     values (tests.get_supabase_uid('learner_b'), 'video', tests.video_id('A public'), 'spam', 'A as B') $$,
  '42501', null,
  'a learner cannot report in another user''s name'
);
select throws_ok(
  $$ insert into public.reports (content_type, content_id, reason, details, status)
     values ('quote', tests.quote_id('Spammy quote'), 'other', 'A: pre-removed', 'removed') $$,
  '42501', null,
  'a learner cannot file a report that is already handled'
);
select throws_ok(
  $$ insert into public.reports (content_type, content_id, reason, details)
     values ('video', tests.video_id('A private'), 'spam', 'A: private') $$,
  '42501', null,
  'a learner cannot report a private video they cannot see'
);
select throws_ok(
  $$ insert into public.reports (content_type, content_id, reason, details)
     values ('video', gen_random_uuid(), 'spam', 'A: nothing') $$,
  '42501', null,
  'a learner cannot report content that does not exist'
);
select throws_ok(
  $$ insert into public.reports (content_type, content_id, reason, details)
     values ('video', tests.video_id('B public'), 'boring', 'A: bad reason') $$,
  '23514', null,
  'a report needs one of the known reasons'
);

select tests.authenticate_as('creator_unverified');
select lives_ok(
  $$ insert into public.reports (content_type, content_id, reason, details)
     values ('video', tests.video_id('A public'), 'inappropriate', 'U: inappropriate') $$,
  'an unverified creator reports a video'
);

select tests.authenticate_as_superuser();
select is((select count(*)::int from public.reports), 6, 'only the allowed reports were filed');

-- select ----------------------------------------------------------------------------

select tests.clear_authentication();
select is((select count(*)::int from public.reports), 0, 'a visitor sees no report');

select tests.authenticate_as('learner_a');
select is(
  array(select details from public.reports order by details),
  array['A: rude comment', 'A: spammy quote', 'A: stolen video', 'A: wrong formula'],
  'a learner sees only their own reports'
);

select tests.authenticate_as('learner_b');
select is(
  array(select details from public.reports order by details),
  array['B: spam video'],
  'the second learner sees only their own report'
);

select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.reports), 0, 'a creator does not see reports about their videos');

select tests.authenticate_as('creator_b');
select is((select count(*)::int from public.reports), 0, 'a second creator sees no reports either');

select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.reports), 6, 'an admin sees every report');

-- update ----------------------------------------------------------------------------

select tests.clear_authentication();
with u as (update public.reports set status = 'dismissed' returning 1)
select is(count(*)::int, 0, 'a visitor cannot handle reports') from u;

select tests.authenticate_as('learner_a');
with u as (update public.reports set status = 'dismissed' where id = tests.report_id('A: wrong formula') returning 1)
select is(count(*)::int, 0, 'a reporter cannot handle their own report') from u;
with u as (update public.reports set details = 'A: edited' where id = tests.report_id('A: wrong formula') returning 1)
select is(count(*)::int, 0, 'a reporter cannot edit their report') from u;

select tests.authenticate_as('creator_b');
with u as (update public.reports set status = 'dismissed' where content_id = tests.video_id('B public') returning 1)
select is(count(*)::int, 0, 'a reported creator cannot dismiss reports about their video') from u;

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from public.reports where status = 'pending' and details like 'A: %' and details <> 'A: edited'),
  4,
  'after the denied updates learner A''s reports are pending and unedited'
);

select tests.authenticate_as('admin_a');
with u as (update public.reports set status = 'dismissed' where id = tests.report_id('A: wrong formula') returning 1)
select is(count(*)::int, 1, 'an admin dismisses a report') from u;

select tests.authenticate_as_superuser();
select results_eq(
  $$ select status, reviewed_by, reviewed_at is not null from public.reports where details = 'A: wrong formula' $$,
  format('values (%L, %L::uuid, true)', 'dismissed', tests.get_supabase_uid('admin_a')),
  'the report records which admin handled it and when'
);

select tests.authenticate_as('admin_b');
with u as (update public.reports set status = 'reviewed', reviewed_by = tests.get_supabase_uid('admin_a')
           where id = tests.report_id('U: inappropriate') returning 1)
select is(count(*)::int, 1, 'the second admin marks a report reviewed') from u;

select tests.authenticate_as_superuser();
select is(
  (select reviewed_by from public.reports where details = 'U: inappropriate'),
  tests.get_supabase_uid('admin_b'),
  'the recorded reviewer is the admin who acted, not the one typed in'
);

select tests.authenticate_as('admin_a');
with u as (update public.reports set status = 'removed' where id = tests.report_id('A: stolen video') returning 1)
select is(count(*)::int, 1, 'an admin removes reported content') from u;
with u as (update public.reports set status = 'removed' where id = tests.report_id('A: rude comment') returning 1)
select is(count(*)::int, 1, 'an admin removes a reported comment') from u;

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from public.videos where title = 'B public'),
  0,
  'removing a reported video deletes it'
);
select is(
  (select count(*)::int from public.comments where body = 'Rude comment'),
  0,
  'removing a reported comment deletes it'
);
select is(
  (select status from public.reports where details = 'B: spam video'),
  'removed',
  'the other open reports about removed content are closed as removed'
);

-- delete ----------------------------------------------------------------------------

select tests.clear_authentication();
with d as (delete from public.reports returning 1)
select is(count(*)::int, 0, 'a visitor cannot delete reports') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.reports returning 1)
select is(count(*)::int, 0, 'a reporter cannot delete their reports') from d;

select tests.authenticate_as('creator_b');
with d as (delete from public.reports returning 1)
select is(count(*)::int, 0, 'a creator cannot delete reports') from d;

select tests.authenticate_as_superuser();
select is((select count(*)::int from public.reports), 6, 'after the denied deletes every report is still there');

select tests.authenticate_as('admin_a');
with d as (delete from public.reports where id = tests.report_id('A: wrong formula') returning 1)
select is(count(*)::int, 1, 'an admin deletes a report') from d;

select tests.authenticate_as_superuser();
select * from finish();
rollback;
