-- 040 · Video likes and comments.
-- Proves: likes and comments are seen exactly when their video is (a private video's
-- are hidden with it); users like, unlike and comment only as themselves and only on
-- videos they can see; authors edit their comments; authors, the video's creator and
-- admins delete comments; visitors write nothing; like_count and comment_count stay
-- equal to count(*) through likes, unlikes, comments and deletes.
begin;
select plan(53);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);
select tests.create_video('creator_b', 'B public', true);

insert into public.video_likes (video_id, user_id) values
  (tests.video_id('A public'), tests.get_supabase_uid('learner_b')),
  (tests.video_id('A private'), tests.get_supabase_uid('creator_a'));
insert into public.comments (video_id, user_id, body) values
  (tests.video_id('A public'), tests.get_supabase_uid('learner_b'), 'Great lesson'),
  (tests.video_id('A private'), tests.get_supabase_uid('creator_a'), 'Note to self'),
  (tests.video_id('B public'), tests.get_supabase_uid('learner_a'), 'Nice one');

-- video_likes · select ---------------------------------------------------------------

select tests.clear_authentication();
select is(
  array(select v.title from public.video_likes l join public.videos v on v.id = l.video_id),
  array['A public'],
  'a visitor sees the likes of public videos only'
);

select tests.authenticate_as('learner_a');
select is(
  (select count(*)::int from public.video_likes where video_id = tests.video_id('A private')),
  0,
  'a learner does not see the likes of a private video'
);
select is((select count(*)::int from public.video_likes), 1, 'a learner sees the likes of public videos');

select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.video_likes), 2, 'a creator sees the likes of their own private video too');

select tests.authenticate_as('creator_b');
select is((select count(*)::int from public.video_likes), 1, 'another creator does not see the likes of A''s private video');

select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.video_likes), 2, 'an admin sees every like');

-- video_likes · insert ---------------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.video_likes (video_id, user_id) values (tests.video_id('A public'), tests.get_supabase_uid('learner_a')) $$,
  '42501', null,
  'a visitor cannot like a video'
);

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.video_likes (video_id) values (tests.video_id('A public')) $$,
  'a learner likes a public video as themselves'
);
select throws_ok(
  $$ insert into public.video_likes (video_id, user_id) values (tests.video_id('B public'), tests.get_supabase_uid('learner_b')) $$,
  '42501', null,
  'a learner cannot like a video on behalf of another user'
);
select throws_ok(
  $$ insert into public.video_likes (video_id) values (tests.video_id('A private')) $$,
  '42501', null,
  'a learner cannot like a private video they cannot see'
);
select throws_ok(
  $$ insert into public.video_likes (video_id) values (tests.video_id('A public')) $$,
  '23505', null,
  'a learner likes a video at most once'
);

select tests.authenticate_as('creator_unverified');
select lives_ok(
  $$ insert into public.video_likes (video_id) values (tests.video_id('B public')) $$,
  'an unverified creator likes a public video'
);

select tests.authenticate_as('admin_a');
select lives_ok(
  $$ insert into public.video_likes (video_id) values (tests.video_id('A private')) $$,
  'an admin likes a private video they can see'
);

select tests.authenticate_as_superuser();
select results_eq(
  $$ select v.title, v.like_count from public.videos v order by v.title $$,
  $$ values ('A private', 2), ('A public', 2), ('B public', 1) $$,
  'like counters count the allowed likes only'
);
select is(
  (select count(*)::int from public.videos v
    where v.like_count <> (select count(*) from public.video_likes l where l.video_id = v.id)),
  0,
  'after the likes every like_count equals count(*) of its likes'
);

-- video_likes · update (likes are never edited) ------------------------------------------

select tests.authenticate_as('learner_a');
with u as (update public.video_likes set created_at = now() - interval '1 year'
           where user_id = tests.get_supabase_uid('learner_a') returning 1)
select is(count(*)::int, 0, 'a learner cannot edit even their own like') from u;
with u as (update public.video_likes set user_id = tests.get_supabase_uid('learner_a')
           where user_id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'a learner cannot take over another user''s like') from u;

-- video_likes · delete ---------------------------------------------------------------

select tests.clear_authentication();
with d as (delete from public.video_likes returning 1)
select is(count(*)::int, 0, 'a visitor cannot remove likes') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.video_likes where user_id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'a learner cannot remove another user''s like') from d;

select tests.authenticate_as('creator_a');
with d as (delete from public.video_likes
           where video_id = tests.video_id('A public') and user_id <> tests.get_supabase_uid('creator_a') returning 1)
select is(count(*)::int, 0, 'a creator cannot remove other users'' likes from their own video') from d;

select tests.authenticate_as('admin_a');
with d as (delete from public.video_likes where user_id = tests.get_supabase_uid('learner_b') returning 1)
select is(count(*)::int, 0, 'an admin cannot remove a user''s like either (only the user unlikes)') from d;

select tests.authenticate_as_superuser();
select is(
  (select count(*)::int from public.video_likes where user_id = tests.get_supabase_uid('learner_b')),
  1,
  'after the denied deletes learner B''s like is still there'
);

select tests.authenticate_as('learner_a');
with d as (delete from public.video_likes
           where user_id = tests.get_supabase_uid('learner_a') and video_id = tests.video_id('A public') returning 1)
select is(count(*)::int, 1, 'a learner unlikes a video') from d;

select tests.authenticate_as_superuser();
select is(
  (select like_count from public.videos where id = tests.video_id('A public')),
  1,
  'unliking lowers the like counter'
);
select is(
  (select count(*)::int from public.videos v
    where v.like_count <> (select count(*) from public.video_likes l where l.video_id = v.id)),
  0,
  'after the unlike every like_count equals count(*) of its likes'
);

-- comments · select ------------------------------------------------------------------

select tests.clear_authentication();
select is(
  array(select body from public.comments order by body),
  array['Great lesson', 'Nice one'],
  'a visitor reads the comments of public videos only'
);

select tests.authenticate_as('learner_a');
select is(
  (select count(*)::int from public.comments where id = tests.comment_id('Note to self')),
  0,
  'a learner cannot read a comment on a private video'
);

select tests.authenticate_as('creator_b');
select is(
  array(select body from public.comments order by body),
  array['Great lesson', 'Nice one'],
  'another creator cannot read the comments of A''s private video'
);

select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.comments), 3, 'a creator reads the comments of their own private video');

select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.comments), 3, 'an admin reads every comment');

-- comments · insert ------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.comments (video_id, user_id, body)
     values (tests.video_id('A public'), tests.get_supabase_uid('learner_a'), 'Visitor comment') $$,
  '42501', null,
  'a visitor cannot comment'
);

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.comments (video_id, body) values (tests.video_id('A public'), 'Thanks, very clear') $$,
  'a learner comments on a public video as themselves'
);
select throws_ok(
  $$ insert into public.comments (video_id, user_id, body)
     values (tests.video_id('A public'), tests.get_supabase_uid('learner_b'), 'Written as B') $$,
  '42501', null,
  'a learner cannot comment as another user'
);
select throws_ok(
  $$ insert into public.comments (video_id, body) values (tests.video_id('A private'), 'Sneaky') $$,
  '42501', null,
  'a learner cannot comment on a private video'
);
select throws_ok(
  $$ insert into public.comments (video_id, body) values (tests.video_id('A public'), '   ') $$,
  '23514', null,
  'a blank comment is refused'
);
select lives_ok(
  $$ insert into public.comments (video_id, body, created_at) values (tests.video_id('B public'), 'Backdated', '2001-01-01') $$,
  'a learner may send a creation date ...'
);
select is(
  (select created_at from public.comments where id = tests.comment_id('Backdated')),
  now(),
  '... but the comment is stamped with the time it was written'
);

select tests.authenticate_as_superuser();
select results_eq(
  $$ select v.title, v.comment_count, (select count(*)::int from public.comments c where c.video_id = v.id)
     from public.videos v order by v.title $$,
  $$ values ('A private', 1, 1), ('A public', 2, 2), ('B public', 2, 2) $$,
  'comment counters follow the allowed comments only'
);

-- comments · update ------------------------------------------------------------------

select tests.clear_authentication();
with u as (update public.comments set body = 'Visitor edit' returning 1)
select is(count(*)::int, 0, 'a visitor cannot edit comments') from u;

select tests.authenticate_as('learner_a');
with u as (update public.comments set body = 'Edited by A' where id = tests.comment_id('Great lesson') returning 1)
select is(count(*)::int, 0, 'a learner cannot edit another user''s comment') from u;

select tests.authenticate_as('creator_a');
with u as (update public.comments set body = 'Edited by the creator' where id = tests.comment_id('Great lesson') returning 1)
select is(count(*)::int, 0, 'a creator cannot edit comments on their video') from u;

select tests.authenticate_as('admin_a');
with u as (update public.comments set body = 'Edited by an admin' where id = tests.comment_id('Great lesson') returning 1)
select is(count(*)::int, 0, 'an admin cannot put words in a user''s mouth') from u;

select tests.authenticate_as('learner_b');
with u as (update public.comments set body = 'Great lesson!' where id = tests.comment_id('Great lesson') returning 1)
select is(count(*)::int, 1, 'a learner edits their own comment') from u;
select throws_ok(
  $$ update public.comments set video_id = tests.video_id('B public') where id = tests.comment_id('Great lesson!') $$,
  '42501', null,
  'a learner cannot move their comment to another video'
);
select throws_ok(
  $$ update public.comments set user_id = tests.get_supabase_uid('learner_a') where id = tests.comment_id('Great lesson!') $$,
  '42501', null,
  'a learner cannot hand their comment to another user'
);

-- comments · delete ------------------------------------------------------------------

select tests.clear_authentication();
with d as (delete from public.comments returning 1)
select is(count(*)::int, 0, 'a visitor cannot delete comments') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.comments where id = tests.comment_id('Great lesson!') returning 1)
select is(count(*)::int, 0, 'a learner cannot delete another user''s comment') from d;

select tests.authenticate_as('creator_b');
with d as (delete from public.comments where id = tests.comment_id('Great lesson!') returning 1)
select is(count(*)::int, 0, 'a creator cannot delete comments on another creator''s video') from d;

select tests.authenticate_as_superuser();
select is((select count(*)::int from public.comments), 5, 'after the denied deletes every comment is still there');

select tests.authenticate_as('creator_a');
with d as (delete from public.comments where id = tests.comment_id('Great lesson!') returning 1)
select is(count(*)::int, 1, 'a creator deletes a comment on their own video') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.comments where id = tests.comment_id('Thanks, very clear') returning 1)
select is(count(*)::int, 1, 'a learner deletes their own comment') from d;

select tests.authenticate_as('admin_a');
with d as (delete from public.comments where id = tests.comment_id('Nice one') returning 1)
select is(count(*)::int, 1, 'an admin deletes any comment') from d;

select tests.authenticate_as_superuser();
select results_eq(
  $$ select v.title, v.comment_count, (select count(*)::int from public.comments c where c.video_id = v.id)
     from public.videos v order by v.title $$,
  $$ values ('A private', 1, 1), ('A public', 0, 0), ('B public', 1, 1) $$,
  'after the deletes every comment_count equals count(*) of its comments'
);

select * from finish();
rollback;
