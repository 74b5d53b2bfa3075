-- 120 · The sign-in screen's account check.
-- Proves: public.email_is_registered answers only the service role (the app
-- server); visitors and signed-in users cannot call it to enumerate accounts.
begin;
select plan(6);

select tests.create_cast();
select tests.create_supabase_user('checked', 'checked.user@example.test');

select tests.clear_authentication();
select throws_ok(
  $$ select public.email_is_registered('learner_a@example.test') $$,
  '42501', null,
  'a visitor cannot ask whether an email is registered'
);

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ select public.email_is_registered('learner_b@example.test') $$,
  '42501', null,
  'a learner cannot ask whether an email is registered'
);

select tests.authenticate_as('admin_a');
select throws_ok(
  $$ select public.email_is_registered('learner_b@example.test') $$,
  '42501', null,
  'even an admin cannot call it through the API roles'
);

select tests.authenticate_as_service_role();
select is(public.email_is_registered('checked.user@example.test'), true, 'the service role learns that a registered email exists');
select is(public.email_is_registered('  CHECKED.User@Example.TEST '), true, 'the check ignores case and surrounding spaces');
select is(public.email_is_registered('nobody-here@example.test'), false, 'an unknown email is not registered');

select * from finish();
rollback;
