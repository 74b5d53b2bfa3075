-- 210 · Operability: worker heartbeats and the request id of a media job.
-- Proves: no API identity (visitor, learner, unverified creator, verified creator,
-- admin) reads, adds, changes or removes worker heartbeats; the service role (the
-- worker) does; a job queued inside a request keeps that request's id
-- (lumen.request_id), and one queued outside a request has none.
begin;
select plan(27);

select tests.create_cast();

select tests.authenticate_as_service_role();
select lives_ok(
  $$ insert into public.worker_heartbeats (worker_id) values ('host:1:abc') $$,
  'the service role (a worker) records its heartbeat'
);
select lives_ok(
  $$ update public.worker_heartbeats set seen_at = now() where worker_id = 'host:1:abc' $$,
  'the service role refreshes it'
);
select is((select count(*)::int from public.worker_heartbeats), 1, 'the service role reads heartbeats');

select tests.authenticate_as_superuser();

create function tests.heartbeats_refused(who text) returns setof text
  language plpgsql
as $$
begin
  if who = 'visitor' then
    perform tests.clear_authentication();
  else
    perform tests.authenticate_as(who);
  end if;
  return next throws_ok($q$ select * from public.worker_heartbeats $q$, '42501', null, who || ' cannot read heartbeats');
  return next throws_ok(
    $q$ insert into public.worker_heartbeats (worker_id) values ('fake') $q$, '42501', null, who || ' cannot fake a worker');
  return next throws_ok(
    $q$ update public.worker_heartbeats set seen_at = now() $q$, '42501', null, who || ' cannot refresh a heartbeat');
  return next throws_ok($q$ delete from public.worker_heartbeats $q$, '42501', null, who || ' cannot remove a heartbeat');
end
$$;

select tests.heartbeats_refused('visitor');
select tests.heartbeats_refused('learner_a');
select tests.heartbeats_refused('creator_unverified');
select tests.heartbeats_refused('creator_a');
select tests.heartbeats_refused('admin_a');

select tests.authenticate_as_superuser();
select results_eq(
  $$ select worker_id from public.worker_heartbeats $$,
  $$ values ('host:1:abc') $$,
  'after the refused writes the one heartbeat is as the worker left it'
);

-- request_id -------------------------------------------------------------------------
select tests.authenticate_as('creator_a');
select set_config('lumen.request_id', 'req-upload-1', true);
select lives_ok(
  $$ insert into public.videos (title, source_path) values ('Traced upload', tests.get_supabase_uid('creator_a') || '/videos/traced.mp4') $$,
  'a verified creator uploads inside a request'
);
select set_config('lumen.request_id', '', true);
select lives_ok(
  $$ insert into public.videos (title, source_path) values ('Untraced upload', tests.get_supabase_uid('creator_a') || '/videos/untraced.mp4') $$,
  'and another outside any request'
);

select tests.authenticate_as_superuser();
select results_eq(
  $$ select v.title::text, j.request_id from public.media_jobs j join public.videos v on v.id = j.video_id
      where v.title in ('Traced upload', 'Untraced upload') order by v.title $$,
  $$ values ('Traced upload', 'req-upload-1'), ('Untraced upload', null) $$,
  'the job keeps the id of the request that queued it, and none outside a request'
);

select * from finish();
rollback;
