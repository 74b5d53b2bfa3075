-- 300 · The app's rate-limit windows.
-- Proves: API callers (visitors, learners, creators, admins) can neither read nor write them
-- (else a caller could reset their own limit or read who is being limited); the service role can.
begin;
select plan(9);

select tests.create_cast();

select tests.authenticate_as_service_role();
insert into public.rate_limits (key, count, reset_at) values ('api:address:203.0.113.9', 3, now() + interval '1 minute');
select is((select count from public.rate_limits where key = 'api:address:203.0.113.9'), 3, 'the service role reads a window');

select tests.clear_authentication();
select throws_ok($$ select * from public.rate_limits $$, '42501', null, 'a visitor cannot read the windows');
select throws_ok($$ delete from public.rate_limits $$, '42501', null, 'a visitor cannot reset them');

select tests.authenticate_as('learner_a');
select throws_ok($$ select * from public.rate_limits $$, '42501', null, 'a learner cannot read the windows');
select throws_ok($$ update public.rate_limits set count = 0 $$, '42501', null, 'a learner cannot reset them');
select throws_ok($$ insert into public.rate_limits values ('x', 0, now()) $$, '42501', null, 'a learner cannot add one');

select tests.authenticate_as('creator_a');
select throws_ok($$ delete from public.rate_limits $$, '42501', null, 'a creator cannot reset them');

select tests.authenticate_as('admin_a');
select throws_ok($$ select * from public.rate_limits $$, '42501', null, 'an admin (an API caller too) cannot read them');
select throws_ok($$ delete from public.rate_limits $$, '42501', null, 'an admin cannot reset them');

select * from finish();
rollback;
