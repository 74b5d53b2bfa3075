-- 450 · Cached unread counts told when they change (ADR 0062).
-- Proves: the sender puts the recipient's id on lumen_unread_changed; the triggers tell
-- the recipient — once a statement, never the one acting — when an unread notification
-- arrives (one or many recipients at once), is marked read, is deleted; marking read again,
-- another user's attempt, and deleting a read one tell nobody; nobody calls the sender or
-- the trigger function through the API; who reads and marks what is as before.
begin;
select plan(17);

select matches(
  pg_catalog.pg_get_functiondef('public.send_unread_changed(uuid)'::regprocedure),
  'pg_notify\(''lumen_unread_changed'', recipient::text\)',
  'the sender sends the recipient''s id on lumen_unread_changed'
);

-- From here on the sender writes down whom it would tell (NOTIFY is only sent at commit,
-- and this file rolls back).
create temporary table told (recipient uuid);
grant all on told to public;
create or replace function public.send_unread_changed(recipient uuid) returns void
  language sql volatile
  set search_path = ''
as $$
  insert into pg_temp.told values (recipient)
$$;
create function pg_temp.told_sorted() returns uuid[] language sql as $$
  select coalesce(array_agg(recipient order by recipient), '{}') from pg_temp.told
$$;
create function pg_temp.uids(variadic names text[]) returns uuid[] language sql as $$
  select array_agg(tests.get_supabase_uid(name) order by tests.get_supabase_uid(name)) from unnest(names) name
$$;

select tests.create_cast();
select tests.create_video('creator_a', 'Optics', true);
delete from told;

-- Arriving ------------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
insert into public.follows (creator_id) values (tests.get_supabase_uid('creator_a'));
select is(pg_temp.told_sorted(), pg_temp.uids('creator_a'), 'a new notification tells its recipient, not the one acting');
delete from told;

select tests.authenticate_as('learner_b');
insert into public.follows (creator_id) values (tests.get_supabase_uid('creator_a'));
delete from told;
select tests.authenticate_as('creator_a');
insert into public.videos (title, source_path) values ('Waves', tests.get_supabase_uid('creator_a') || '/videos/waves.mp4');
select tests.authenticate_as_service_role();
update public.videos set status = 'ready', hls_path = 'videos/x/master.m3u8' where id = tests.video_id('Waves');
select is(pg_temp.told_sorted(), pg_temp.uids('learner_a', 'learner_b', 'creator_a'),
  'an upload made ready tells each follower and the creator, once each');
delete from told;

-- Reading ---------------------------------------------------------------------------------

select tests.authenticate_as('learner_b');
update public.notifications set read_at = now() where recipient_id = tests.get_supabase_uid('learner_a');
select is(pg_temp.told_sorted(), '{}'::uuid[], 'another learner''s attempt to mark learner_a''s read tells nobody');

select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.notifications where read_at is null), 1,
  'and marks nothing (the recipient still has one unread)');
update public.notifications set read_at = now() where read_at is null;
select is(pg_temp.told_sorted(), pg_temp.uids('learner_a'), 'the recipient marking read tells them');
delete from told;
update public.notifications set read_at = now();
select is(pg_temp.told_sorted(), '{}'::uuid[], 'marking read ones read again tells nobody (the count did not change)');

select tests.authenticate_as('creator_a');
update public.notifications set read_at = now();
select is(pg_temp.told_sorted(), pg_temp.uids('creator_a'), 'marking all read tells the recipient once');
delete from told;

-- Going -----------------------------------------------------------------------------------

select tests.authenticate_as_superuser();
update public.notifications set read_at = null where recipient_id = tests.get_supabase_uid('learner_b');
delete from told;
-- learner_b's notification of Waves goes when it is made private; learner_a's (read) goes too.
select tests.authenticate_as('creator_a');
update public.videos set is_public = false where id = tests.video_id('Waves');
select is(pg_temp.told_sorted(), pg_temp.uids('learner_b'),
  'an unread notification deleted tells its recipient; a read one tells nobody');
delete from told;

-- Who calls what --------------------------------------------------------------------------

select ok(not has_function_privilege('authenticated', 'public.send_unread_changed(uuid)', 'execute'),
  'a signed-in user cannot call the sender');
select ok(not has_function_privilege('anon', 'public.send_unread_changed(uuid)', 'execute'),
  'nor can a visitor');
select ok(not has_function_privilege('authenticated', 'public.notify_unread_changed()', 'execute'),
  'nor the trigger function');

-- Row-level security as before ------------------------------------------------------------

select tests.authenticate_as('learner_b');
select is((select count(*)::int from public.notifications where recipient_id <> tests.get_supabase_uid('learner_b')), 0,
  'a learner reads nobody else''s notifications');
select tests.authenticate_as('creator_a');
select cmp_ok((select count(*)::int from public.notifications), '>', 0, 'the creator reads their own');
select throws_ok($$ delete from public.notifications $$, '42501', null, 'and cannot delete them');
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.notifications where recipient_id <> tests.get_supabase_uid('admin_a')), 0,
  'an admin reads nobody else''s notifications either');
select tests.clear_authentication();
select throws_ok($$ select * from public.notifications $$, '42501', null, 'a visitor cannot read notifications');

select * from finish();
rollback;
