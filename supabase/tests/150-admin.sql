-- 150 · The admin console: who may run each admin action, and the audit trail.
-- Proves: a visitor, a learner, an unverified creator and a verified creator cannot
-- approve a creator, decide a report, read feedback or the audit trail, list, add
-- or delete users, change a role or fix portfolios; an admin can, and each action
-- leaves one audit row naming the admin; an admin cannot delete their own row;
-- nobody writes, edits or deletes audit rows through the API, admins included.
begin;
select plan(55);

select tests.create_cast();
-- The cast's creators were approved by an admin (tests.make_verified_creator), which the
-- trail recorded; start this file from an empty trail.
delete from public.admin_audit;
select tests.create_video('creator_b', 'B reported', true);
select tests.create_video('creator_b', 'B removed', true);
insert into public.reports (reporter_id, content_type, content_id, reason, details)
values (tests.get_supabase_uid('learner_a'), 'video', tests.video_id('B reported'), 'spam', 'A: spam'),
       (tests.get_supabase_uid('learner_b'), 'video', tests.video_id('B removed'), 'harmful', 'B: harmful'),
       (tests.get_supabase_uid('learner_a'), 'video', tests.video_id('B removed'), 'harmful', 'A: harmful too');
insert into public.feedback (user_id, liked, usage, recommendations)
values (tests.get_supabase_uid('learner_a'), true, 'Watching', 'More physics');

-- The pending application's id, read here past RLS, so that refusals aim at a row that exists.
create function tests.pending_application() returns uuid
  language sql stable security definer
  set search_path = ''
as $$
  select id from public.creator_applications
   where creator_id = tests.get_supabase_uid('creator_unverified') and status = 'pending'
$$;
grant execute on function tests.pending_application() to anon, authenticated;

-- Everyone but an admin, one identity at a time ------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ select public.review_creator_application(tests.pending_application(), true) $$,
  '42501', null, 'a visitor cannot approve a creator'
);
select is((select count(*)::int from public.admin_audit), 0, 'a visitor reads no audit row');
select throws_ok($$ select public.fix_portfolios() $$, '42501', null, 'a visitor cannot fix portfolios');

select tests.authenticate_as_superuser();
create function tests.refused(who text) returns setof text
  language plpgsql
as $$
declare
  changed integer;
begin
  perform tests.authenticate_as(who);
  return next throws_ok(
    $q$ select public.review_creator_application(tests.pending_application(), true) $q$,
    '42501', null, who || ' cannot approve a creator');
  update public.reports set status = 'dismissed' where status = 'pending';
  get diagnostics changed = row_count;
  return next is(changed, 0, who || ' cannot decide a report');
  return next is((select count(*)::int from public.feedback), 0, who || ' reads no feedback');
  return next is((select count(*)::int from public.admin_audit), 0, who || ' reads no audit row');
  return next throws_ok($q$ select * from public.list_users() $q$, '42501', null, who || ' cannot list users');
  return next throws_ok(
    format($q$ select * from public.user_emails(array[%L::uuid]) $q$, tests.get_supabase_uid('learner_b')),
    '42501', null, who || ' cannot read emails');
  delete from public.profiles where id = tests.get_supabase_uid('learner_b');
  get diagnostics changed = row_count;
  return next is(changed, 0, who || ' cannot delete a user');
  return next throws_ok(
    format($q$ update public.profiles set role = 'admin' where id = %L $q$, tests.get_supabase_uid(who)),
    '42501', null, who || ' cannot change their own role');
  return next throws_ok(
    format($q$ select public.record_user_added(%L) $q$, tests.get_supabase_uid('learner_b')),
    '42501', null, who || ' cannot record a user as added');
  return next throws_ok($q$ select public.fix_portfolios() $q$, '42501', null, who || ' cannot fix portfolios');
end
$$;
grant execute on function tests.refused(text) to authenticated;

select * from tests.refused('learner_a');
select * from tests.refused('creator_unverified');
select * from tests.refused('creator_a');

select tests.authenticate_as_superuser();
select is(
  (select status from public.creator_applications where id = tests.pending_application()),
  'pending', 'after all that the application is still pending'
);
select is(
  (select count(*)::int from public.reports where status = 'pending'), 3, 'and every report is still pending'
);

-- An admin ---------------------------------------------------------------------------

select tests.authenticate_as('admin_a');
select is(
  (select status from public.review_creator_application(tests.pending_application(), true, 'Welcome')),
  'approved', 'an admin approves a creator'
);
with changed as (update public.reports set status = 'dismissed'
                 where content_id = tests.video_id('B reported') and status = 'pending' returning 1)
select is(count(*)::int, 1, 'an admin dismisses a report') from changed;
select lives_ok(
  $$ update public.reports set status = 'removed' where id = tests.report_id('B: harmful') $$,
  'an admin removes reported content'
);
select is(
  (select count(*)::int from public.reports where content_id = tests.video_id('B reported') or details like '%harmful%'),
  3, 'an admin still reads every report'
);
select is(
  (select email from public.user_emails(array[tests.get_supabase_uid('learner_b')])),
  (tests.get_supabase_user('learner_b') ->> 'email'), 'an admin reads a user''s email'
);
select lives_ok(
  format($$ update public.profiles set role = 'creator' where id = %L $$, tests.get_supabase_uid('learner_b')),
  'an admin changes a role'
);
select lives_ok(
  format($$ select public.record_user_added(%L) $$, tests.get_supabase_uid('learner_b')),
  'an admin records a user as added'
);
select is(public.fix_portfolios(), 0, 'an admin fixes portfolios (nothing to fix)');
with gone as (delete from public.profiles where id = tests.get_supabase_uid('admin_a') returning 1)
select is(count(*)::int, 0, 'an admin cannot delete their own row') from gone;
with gone as (delete from public.profiles where id = tests.get_supabase_uid('learner_a') returning 1)
select is(count(*)::int, 1, 'an admin deletes another user') from gone;
select is((select count(*)::int from public.feedback), 0, 'their feedback went with them');

select is(
  array(select action from public.admin_audit order by created_at),
  array['application.approved', 'report.dismissed', 'report.removed', 'user.role_changed',
        'user.added', 'portfolios.fixed', 'user.deleted'],
  'every action left one audit row, in order (the report closed along with the removal is not counted twice)'
);
select is(
  (select count(*)::int from public.admin_audit where actor_id = tests.get_supabase_uid('admin_a') and actor_username is not null),
  7, 'each names the admin'
);
select is(
  (select details from public.admin_audit where action = 'user.role_changed'),
  '{"to": "creator", "from": "user"}'::jsonb, 'a role change records both roles'
);

select throws_ok(
  $$ insert into public.admin_audit (action, target_type) values ('user.deleted', 'user') $$,
  '42501', null, 'an admin cannot write an audit row'
);
select throws_ok(
  $$ update public.admin_audit set actor_username = 'someone else' $$,
  '42501', null, 'an admin cannot edit an audit row'
);
select throws_ok($$ delete from public.admin_audit $$, '42501', null, 'an admin cannot delete an audit row');
select throws_ok(
  $$ select public.write_admin_audit('user.deleted', 'user', null, null) $$,
  '42501', null, 'an admin cannot call the audit writer directly'
);

select tests.authenticate_as('admin_b');
select is((select count(*)::int from public.admin_audit), 7, 'another admin reads the audit trail');

select tests.authenticate_as_superuser();
select ok(
  exists (select 1 from public.profiles where id = tests.get_supabase_uid('admin_a')),
  'the admin is still there'
);

select * from finish();
rollback;
