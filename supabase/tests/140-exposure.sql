-- 140 · Exposure decisions of ADR 0012, finding 8 (docs/decisions/0012).
-- Proves: no API role selects videos.status_message; the creator and admins read it
-- through public.video_status_message(), anyone else gets null and anon may not call it; the per-user storage quota refuses an object that would pass it
-- (53400), counts per owner, and leaves ownerless (worker) files alone.
begin;
select plan(12);

select tests.create_cast();
select tests.create_video('creator_a', 'A failed upload', false, 'natural-sciences-physics');
select tests.authenticate_as_superuser();
update public.videos set status = 'failed', status_message = 'not a video' where id = tests.video_id('A failed upload');

-- The column itself: no API role reads it, the video's creator included.
select tests.clear_authentication();
select throws_ok($$ select status_message from public.videos $$, '42501', null, 'anon cannot select videos.status_message');
select tests.authenticate_as('learner_a');
select throws_ok($$ select status_message from public.videos $$, '42501', null, 'a learner cannot select videos.status_message');
select tests.authenticate_as('creator_a');
select throws_ok($$ select status_message from public.videos $$, '42501', null, 'even the creator reads it only through the function');

select tests.clear_authentication();
select throws_ok(
  $$ select public.video_status_message(gen_random_uuid()) $$, '42501', null, 'anon cannot call video_status_message()');

select tests.authenticate_as('learner_a');
select lives_ok($$ select id, title, status from public.videos $$, 'a learner still selects the other columns');
select is(public.video_status_message(tests.video_id('A failed upload')), null, 'a learner gets null for another''s video');

select tests.authenticate_as('creator_b');
select is(public.video_status_message(tests.video_id('A failed upload')), null, 'another creator gets null');

select tests.authenticate_as('creator_a');
select is(public.video_status_message(tests.video_id('A failed upload')), 'not a video', 'the creator reads the message');

select tests.authenticate_as('admin_a');
select is(public.video_status_message(tests.video_id('A failed upload')), 'not a video', 'an admin reads the message');

-- Quota (as the storage server writes the rows).
select tests.authenticate_as_superuser();
insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
values ('uploads', tests.get_supabase_uid('learner_a') || '/quotes/big.mp4', tests.get_supabase_uid('learner_a'),
        tests.get_supabase_uid('learner_a')::text, jsonb_build_object('size', public.storage_quota_bytes() - 10));
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
            values ('uploads', %L, %L, %L, '{"size": 11}') $$,
         tests.get_supabase_uid('learner_a') || '/quotes/one-more.mp4', tests.get_supabase_uid('learner_a'),
         tests.get_supabase_uid('learner_a')::text),
  '53400', null, 'an object past the owner''s quota is refused');
select lives_ok(
  format($$ insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
            values ('uploads', %L, %L, %L, '{"size": 11}') $$,
         tests.get_supabase_uid('learner_b') || '/quotes/small.mp4', tests.get_supabase_uid('learner_b'),
         tests.get_supabase_uid('learner_b')::text),
  'another user''s quota is their own');
select lives_ok(
  $$ insert into storage.objects (bucket_id, name, metadata) values ('media', 'worker/output.ts', '{"size": 99999999999}') $$,
  'files without an owner (the media worker''s) are not counted');

select * from finish();
rollback;
