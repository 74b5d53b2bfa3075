-- 100 · Storage: rows in storage.objects, bucket by bucket, as Supabase Storage
-- checks them (it inserts, updates, selects and deletes the row as the caller).
-- Proves: avatars are public; thumbnails and media objects are readable exactly when
-- their video or quote is (a private video's thumbnail and renditions are hidden,
-- except from its creator and admins); uploads and
-- portfolios are read by their owner and admins only; everyone writes only into
-- their own folder; video originals and thumbnails need a verified creator (or an
-- admin); only the service role writes media; admins delete any user file.
begin;
select plan(54);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);
update public.videos set thumbnail_path = creator_id || '/a.jpg' where title = 'A public';
update public.videos set thumbnail_path = creator_id || '/a-private.jpg' where title = 'A private';
-- Video quotes whose media exists are ready ones (a response still processing is its author's only).
insert into public.quotes (video_id, user_id, type, response_source_path, response_status) values
  (tests.video_id('A public'), tests.get_supabase_uid('learner_b'), 'video', tests.get_supabase_uid('learner_b') || '/quotes/q.mp4', 'ready'),
  (tests.video_id('A private'), tests.get_supabase_uid('creator_a'), 'video', tests.get_supabase_uid('creator_a') || '/quotes/p.mp4', 'ready');

-- Every object carries a label in user_metadata, so assertions read as words.
insert into storage.objects (bucket_id, name, owner, user_metadata)
select bucket, path, tests.get_supabase_uid(owner), jsonb_build_object('label', label)
from (values
  ('uploads', tests.get_supabase_uid('creator_a') || '/videos/a.mp4', 'creator_a', 'A original'),
  ('uploads', tests.get_supabase_uid('learner_b') || '/quotes/q.mp4', 'learner_b', 'B quote original'),
  ('media', 'videos/' || tests.video_id('A public') || '/master.m3u8', 'creator_a', 'A public media'),
  ('media', 'videos/' || tests.video_id('A private') || '/master.m3u8', 'creator_a', 'A private media'),
  ('media', 'quotes/' || (select id from public.quotes where user_id = tests.get_supabase_uid('learner_b')) || '/master.m3u8',
   'learner_b', 'B quote media'),
  ('media', 'quotes/' || (select id from public.quotes where user_id = tests.get_supabase_uid('creator_a')) || '/master.m3u8',
   'creator_a', 'A private quote media'),
  ('thumbnails', tests.get_supabase_uid('creator_a') || '/a.jpg', 'creator_a', 'A thumbnail'),
  ('thumbnails', tests.get_supabase_uid('creator_a') || '/a-private.jpg', 'creator_a', 'A private thumbnail'),
  ('avatars', tests.get_supabase_uid('learner_b') || '/me.png', 'learner_b', 'B avatar'),
  ('portfolios', tests.get_supabase_uid('creator_unverified') || '/cv.pdf', 'creator_unverified', 'U portfolio')
) as fixture (bucket, path, owner, label);

-- select ----------------------------------------------------------------------------

select tests.clear_authentication();
select is(
  array(select user_metadata ->> 'label' from storage.objects order by 1),
  array['A public media', 'A thumbnail', 'B avatar', 'B quote media'],
  'a visitor reads avatars and the thumbnails and media of public videos and their quotes'
);
select is(
  (select count(*)::int from storage.objects where user_metadata ->> 'label' = 'A private thumbnail'),
  0,
  'a visitor cannot list the thumbnail of a private video'
);

select tests.authenticate_as('learner_a');
select is(
  array(select user_metadata ->> 'label' from storage.objects order by 1),
  array['A public media', 'A thumbnail', 'B avatar', 'B quote media'],
  'a learner reads the same, and not others'' originals or portfolios'
);

select tests.authenticate_as('learner_b');
select is(
  array(select user_metadata ->> 'label' from storage.objects order by 1),
  array['A public media', 'A thumbnail', 'B avatar', 'B quote media', 'B quote original'],
  'a learner also reads their own uploaded original'
);

select tests.authenticate_as('creator_unverified');
select is(
  array(select user_metadata ->> 'label' from storage.objects order by 1),
  array['A public media', 'A thumbnail', 'B avatar', 'B quote media', 'U portfolio'],
  'an unverified creator reads their own portfolio'
);

select tests.authenticate_as('creator_b');
select is(
  array(select user_metadata ->> 'label' from storage.objects order by 1),
  array['A public media', 'A thumbnail', 'B avatar', 'B quote media'],
  'another creator does not see A''s private thumbnail and media, originals or anyone''s portfolio'
);

select tests.authenticate_as('creator_a');
select is(
  array(select user_metadata ->> 'label' from storage.objects order by 1),
  array['A original', 'A private media', 'A private quote media', 'A private thumbnail', 'A public media', 'A thumbnail',
        'B avatar', 'B quote media'],
  'a creator reads their own original and the thumbnail and media of their private video'
);

select tests.authenticate_as('admin_a');
select is(
  (select count(*)::int from storage.objects),
  10,
  'an admin reads every object: originals, portfolios, private thumbnails and media'
);

-- insert ----------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into storage.objects (bucket_id, name) values ('avatars', 'anon/me.png') $$,
  '42501', null,
  'a visitor cannot upload anything'
);
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('avatars', %L) $$, tests.get_supabase_uid('learner_a') || '/me.png'),
  '42501', null,
  'a visitor cannot upload into a user''s folder'
);

select tests.authenticate_as('learner_a');
select lives_ok(
  format($$ insert into storage.objects (bucket_id, name, owner) values ('avatars', %L, auth.uid()) $$,
         tests.get_supabase_uid('learner_a') || '/me.png'),
  'a learner uploads an avatar into their own folder'
);
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('avatars', %L) $$, tests.get_supabase_uid('learner_b') || '/me2.png'),
  '42501', null,
  'a learner cannot upload into another user''s folder'
);
select throws_ok(
  $$ insert into storage.objects (bucket_id, name) values ('avatars', 'me.png') $$,
  '42501', null,
  'a learner cannot upload outside any user folder'
);
select lives_ok(
  format($$ insert into storage.objects (bucket_id, name, owner) values ('uploads', %L, auth.uid()) $$,
         tests.get_supabase_uid('learner_a') || '/quotes/reply.mp4'),
  'a learner uploads a video quote original into their own folder'
);
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('uploads', %L) $$, tests.get_supabase_uid('learner_a') || '/videos/lesson.mp4'),
  '42501', null,
  'a learner cannot upload a video original'
);
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('thumbnails', %L) $$, tests.get_supabase_uid('learner_a') || '/t.jpg'),
  '42501', null,
  'a learner cannot upload a thumbnail'
);
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('media', %L) $$, 'videos/' || tests.video_id('A public') || '/evil.m3u8'),
  '42501', null,
  'a learner cannot write media'
);

select tests.authenticate_as('creator_unverified');
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('uploads', %L) $$, tests.get_supabase_uid('creator_unverified') || '/videos/early.mp4'),
  '42501', null,
  'an unverified creator cannot upload a video original'
);
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('thumbnails', %L) $$, tests.get_supabase_uid('creator_unverified') || '/t.jpg'),
  '42501', null,
  'an unverified creator cannot upload a thumbnail'
);
select lives_ok(
  format($$ insert into storage.objects (bucket_id, name, owner) values ('portfolios', %L, auth.uid()) $$,
         tests.get_supabase_uid('creator_unverified') || '/demo.mp4'),
  'an unverified creator uploads a portfolio into their own folder'
);

select tests.authenticate_as('creator_a');
select lives_ok(
  format($$ insert into storage.objects (bucket_id, name, owner) values ('uploads', %L, auth.uid()) $$,
         tests.get_supabase_uid('creator_a') || '/videos/next.mp4'),
  'a verified creator uploads a video original into their own folder'
);
select lives_ok(
  format($$ insert into storage.objects (bucket_id, name, owner) values ('thumbnails', %L, auth.uid()) $$,
         tests.get_supabase_uid('creator_a') || '/next.jpg'),
  'a verified creator uploads a thumbnail into their own folder'
);
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('uploads', %L) $$, tests.get_supabase_uid('creator_b') || '/videos/planted.mp4'),
  '42501', null,
  'a verified creator cannot upload into another creator''s folder'
);
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('portfolios', %L) $$, tests.get_supabase_uid('creator_unverified') || '/fake.pdf'),
  '42501', null,
  'a creator cannot plant a file in another creator''s portfolio'
);
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('media', %L) $$, 'videos/' || tests.video_id('A private') || '/master.m3u8.new'),
  '42501', null,
  'a creator cannot write media, even for their own video'
);

select tests.authenticate_as('admin_a');
select lives_ok(
  format($$ insert into storage.objects (bucket_id, name, owner) values ('uploads', %L, auth.uid()) $$,
         tests.get_supabase_uid('admin_a') || '/videos/admin.mp4'),
  'an admin uploads a video original into their own folder'
);
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('media', %L) $$, 'videos/' || tests.video_id('A public') || '/admin.m3u8'),
  '42501', null,
  'an admin cannot write media (only the worker does)'
);

select tests.authenticate_as_service_role();
select lives_ok(
  format($$ insert into storage.objects (bucket_id, name) values ('media', %L) $$, 'videos/' || tests.video_id('A public') || '/720p.m3u8'),
  'the service role (the media worker) writes media'
);

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from storage.objects),
  17,
  'only the allowed uploads were stored'
);

-- update (upserts and moves) ------------------------------------------------------------

select tests.clear_authentication();
with u as (update storage.objects set user_metadata = '{"label":"defaced"}' returning 1)
select is(count(*)::int, 0, 'a visitor cannot change any object') from u;

select tests.authenticate_as('learner_a');
with u as (update storage.objects set metadata = '{"mimetype":"image/png"}'
           where bucket_id = 'avatars' and owner = tests.get_supabase_uid('learner_a') returning 1)
select is(count(*)::int, 1, 'a learner replaces their own avatar') from u;
with u as (update storage.objects set user_metadata = '{"label":"defaced"}'
           where bucket_id = 'avatars' and owner = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'a learner cannot overwrite another user''s avatar') from u;
select throws_ok(
  format($$ update storage.objects set name = %L where bucket_id = 'avatars' and owner = auth.uid() $$,
         tests.get_supabase_uid('learner_b') || '/me.png.moved'),
  '42501', null,
  'a learner cannot move their file into another user''s folder'
);
select throws_ok(
  format($$ update storage.objects set name = %L where bucket_id = 'uploads' and owner = auth.uid() $$,
         tests.get_supabase_uid('learner_a') || '/videos/promoted.mp4'),
  '42501', null,
  'a learner cannot rename a quote original into a video original'
);

select tests.authenticate_as('creator_a');
with u as (update storage.objects set user_metadata = '{"label":"tampered"}' where bucket_id = 'media' returning 1)
select is(count(*)::int, 0, 'a creator cannot change media, even of their own videos') from u;
with u as (update storage.objects set user_metadata = '{"label":"tampered"}' where bucket_id = 'portfolios' returning 1)
select is(count(*)::int, 0, 'a creator cannot change another creator''s portfolio') from u;

select tests.authenticate_as('admin_a');
with u as (update storage.objects set user_metadata = '{"label":"tampered"}' where bucket_id = 'media' returning 1)
select is(count(*)::int, 0, 'an admin cannot change media') from u;
with u as (update storage.objects set user_metadata = '{"label":"tampered"}'
           where bucket_id = 'avatars' and owner = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'an admin cannot overwrite a user''s file') from u;

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from storage.objects where user_metadata ->> 'label' in ('defaced', 'tampered')),
  0,
  'after the denied updates no object was changed'
);
select is(
  (select count(*)::int from storage.objects where name like tests.get_supabase_uid('learner_b') || '/%'
     and bucket_id = 'avatars'),
  1,
  'learner B''s folder holds only their own avatar'
);

-- delete ----------------------------------------------------------------------------

select tests.clear_authentication();
with d as (delete from storage.objects returning 1)
select is(count(*)::int, 0, 'a visitor cannot delete objects') from d;

select tests.authenticate_as('learner_a');
with d as (delete from storage.objects where bucket_id = 'avatars' and owner = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'a learner cannot delete another user''s avatar') from d;
with d as (delete from storage.objects where bucket_id = 'media' returning 1)
select is(count(*)::int, 0, 'a learner cannot delete media') from d;

select tests.authenticate_as('creator_b');
with d as (delete from storage.objects where bucket_id = 'thumbnails' returning 1)
select is(count(*)::int, 0, 'a creator cannot delete another creator''s thumbnails') from d;

select tests.authenticate_as('creator_a');
with d as (delete from storage.objects where bucket_id = 'media' returning 1)
select is(count(*)::int, 0, 'a creator cannot delete media, even of their own videos') from d;

select tests.authenticate_as_superuser();
select is((select count(*)::int from storage.objects), 17, 'after the denied deletes every object is still there');

select tests.authenticate_as('learner_a');
with d as (delete from storage.objects where bucket_id = 'avatars' and owner = tests.get_supabase_uid('learner_a') returning 1)
select is(count(*)::int, 1, 'a learner deletes their own avatar') from d;

select tests.authenticate_as('creator_a');
with d as (delete from storage.objects where bucket_id = 'thumbnails' and name = tests.get_supabase_uid('creator_a') || '/next.jpg' returning 1)
select is(count(*)::int, 1, 'a creator deletes their own thumbnail') from d;

select tests.authenticate_as('admin_a');
with d as (delete from storage.objects where bucket_id = 'avatars' and owner = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 1, 'an admin deletes a user''s avatar') from d;
with d as (delete from storage.objects where bucket_id = 'portfolios' and name like tests.get_supabase_uid('creator_unverified') || '/%' returning 1)
select is(count(*)::int, 2, 'an admin deletes a creator''s portfolio files') from d;
with d as (delete from storage.objects where bucket_id = 'media' returning 1)
select is(count(*)::int, 0, 'an admin cannot delete media (the worker cleans it up)') from d;

-- buckets ---------------------------------------------------------------------------

select tests.authenticate_as('admin_a');
select throws_ok(
  $$ insert into storage.buckets (id, name, public) values ('open', 'open', true) $$,
  '42501', null,
  'an admin cannot create a bucket through the API'
);

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ update storage.buckets set public = true where id = 'uploads' $$,
  '42501', null,
  'a learner cannot make a private bucket public'
);

select tests.authenticate_as_superuser();
select is(
  array(select id || ':' || public from storage.buckets order by id),
  array['avatars:true', 'media:false', 'portfolios:false', 'thumbnails:true', 'uploads:false'],
  'the buckets are the five of the schema, with originals, media and portfolios private'
);

select * from finish();
rollback;
