-- 050 · Quotes and quote likes.
-- Proves: quotes (and their likes) are seen exactly when the quoted video is; users
-- quote and like only as themselves and only what they can see; a video quote's
-- response file must be in the author's own folder; authors edit their quotes;
-- authors and admins delete them (the quoted video's creator does not); server-owned
-- columns stay the server's; quote_count and like_count equal count(*).
begin;
select plan(46);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);

insert into public.quotes (video_id, user_id, body) values
  (tests.video_id('A public'), tests.get_supabase_uid('learner_b'), 'B on A public'),
  (tests.video_id('A private'), tests.get_supabase_uid('creator_a'), 'A on A private');
insert into public.quote_likes (quote_id, user_id) values
  (tests.quote_id('B on A public'), tests.get_supabase_uid('creator_b')),
  (tests.quote_id('A on A private'), tests.get_supabase_uid('creator_a'));

-- quotes · select --------------------------------------------------------------------

select tests.clear_authentication();
select is(array(select body from public.quotes), array['B on A public'], 'a visitor reads the quotes of public videos only');

select tests.authenticate_as('learner_a');
select is(array(select body from public.quotes), array['B on A public'], 'a learner does not see quotes of a private video');

select tests.authenticate_as('creator_b');
select is(array(select body from public.quotes), array['B on A public'], 'another creator does not see quotes of A''s private video');

select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.quotes), 2, 'a creator sees the quotes of their own private video');

select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.quotes), 2, 'an admin sees every quote');

-- quotes · insert --------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.quotes (video_id, user_id, body)
     values (tests.video_id('A public'), tests.get_supabase_uid('learner_a'), 'Visitor quote') $$,
  '42501', null,
  'a visitor cannot quote a video'
);

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.quotes (video_id, body) values (tests.video_id('A public'), 'A learns from A public') $$,
  'a learner quotes a public video with text'
);
select lives_ok(
  $$ insert into public.quotes (video_id, type, response_source_path)
     values (tests.video_id('A public'), 'video', tests.get_supabase_uid('learner_a') || '/quotes/answer.mp4') $$,
  'a learner quotes a video with a video response from their own folder'
);
select is(
  (select response_status from public.quotes where response_source_path = tests.get_supabase_uid('learner_a') || '/quotes/answer.mp4'),
  'processing',
  'a video response starts processing'
);
select throws_ok(
  $$ insert into public.quotes (video_id, type, response_source_path)
     values (tests.video_id('A public'), 'video', tests.get_supabase_uid('learner_b') || '/quotes/theirs.mp4') $$,
  '23514', null,
  'a learner cannot use another user''s uploaded file as their response'
);
select throws_ok(
  $$ insert into public.quotes (video_id, user_id, body)
     values (tests.video_id('A public'), tests.get_supabase_uid('learner_b'), 'Written as B') $$,
  '42501', null,
  'a learner cannot quote as another user'
);
select throws_ok(
  $$ insert into public.quotes (video_id, body) values (tests.video_id('A private'), 'Sneaky quote') $$,
  '42501', null,
  'a learner cannot quote a private video'
);
select throws_ok(
  $$ insert into public.quotes (video_id, body, like_count) values (tests.video_id('A public'), 'Popular already', 500) $$,
  '42501', null,
  'a learner cannot start a quote with likes'
);
select throws_ok(
  $$ insert into public.quotes (video_id, body) values (tests.video_id('A public'), '  ') $$,
  '23514', null,
  'a text quote needs text'
);

select tests.authenticate_as_superuser();
select results_eq(
  $$ select v.title, v.quote_count, (select count(*)::int from public.quotes q where q.video_id = v.id)
     from public.videos v order by v.title $$,
  $$ values ('A private', 1, 1), ('A public', 3, 3) $$,
  'quote counters follow the allowed quotes only'
);

-- quotes · update --------------------------------------------------------------------

select tests.clear_authentication();
with u as (update public.quotes set body = 'Visitor edit' returning 1)
select is(count(*)::int, 0, 'a visitor cannot edit quotes') from u;

select tests.authenticate_as('learner_a');
with u as (update public.quotes set body = 'Edited by A' where id = tests.quote_id('B on A public') returning 1)
select is(count(*)::int, 0, 'a learner cannot edit another user''s quote') from u;

select tests.authenticate_as('creator_a');
with u as (update public.quotes set body = 'Edited by the creator' where id = tests.quote_id('B on A public') returning 1)
select is(count(*)::int, 0, 'the quoted video''s creator cannot edit the quote') from u;

select tests.authenticate_as('admin_a');
with u as (update public.quotes set body = 'Edited by an admin' where id = tests.quote_id('B on A public') returning 1)
select is(count(*)::int, 0, 'an admin cannot edit a user''s quote') from u;

select tests.authenticate_as('learner_b');
with u as (update public.quotes set body = 'B on A public, revised' where id = tests.quote_id('B on A public') returning 1)
select is(count(*)::int, 1, 'a learner edits the text of their own quote') from u;
select throws_ok(
  $$ update public.quotes set like_count = 99 where id = tests.quote_id('B on A public, revised') $$,
  '42501', null,
  'a learner cannot set the like counter of their quote'
);
select throws_ok(
  $$ update public.quotes set video_id = tests.video_id('A private') where id = tests.quote_id('B on A public, revised') $$,
  '42501', null,
  'a learner cannot move their quote to another video'
);
select throws_ok(
  $$ update public.quotes set user_id = tests.get_supabase_uid('learner_a') where id = tests.quote_id('B on A public, revised') $$,
  '42501', null,
  'a learner cannot hand their quote to another user'
);

-- quote_likes · select ---------------------------------------------------------------

select tests.clear_authentication();
select is((select count(*)::int from public.quote_likes), 1, 'a visitor sees the likes of visible quotes only');

select tests.authenticate_as('learner_a');
select is(
  (select count(*)::int from public.quote_likes where quote_id = tests.quote_id('A on A private')),
  0,
  'a learner does not see likes of a quote on a private video'
);

select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.quote_likes), 2, 'a creator sees the quote likes on their private video');

select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.quote_likes), 2, 'an admin sees every quote like');

-- quote_likes · insert ---------------------------------------------------------------

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.quote_likes (quote_id, user_id)
     values (tests.quote_id('B on A public, revised'), tests.get_supabase_uid('learner_a')) $$,
  '42501', null,
  'a visitor cannot like a quote'
);

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.quote_likes (quote_id) values (tests.quote_id('B on A public, revised')) $$,
  'a learner likes a quote as themselves'
);
select throws_ok(
  $$ insert into public.quote_likes (quote_id, user_id)
     values (tests.quote_id('B on A public, revised'), tests.get_supabase_uid('learner_b')) $$,
  '42501', null,
  'a learner cannot like a quote on behalf of another user'
);
select throws_ok(
  $$ insert into public.quote_likes (quote_id) values (tests.quote_id('A on A private')) $$,
  '42501', null,
  'a learner cannot like a quote of a private video'
);

select tests.authenticate_as_superuser();
select results_eq(
  $$ select q.body, q.like_count, (select count(*)::int from public.quote_likes l where l.quote_id = q.id)
     from public.quotes q where q.type = 'text' order by q.body $$,
  $$ values ('A learns from A public', 0, 0), ('A on A private', 1, 1), ('B on A public, revised', 2, 2) $$,
  'after the likes every quote''s like_count equals count(*) of its likes'
);

-- quote_likes · update and delete ------------------------------------------------------

select tests.authenticate_as('learner_a');
with u as (update public.quote_likes set user_id = tests.get_supabase_uid('learner_a')
           where user_id = tests.get_supabase_uid('creator_b') returning 1)
select is(count(*)::int, 0, 'a learner cannot take over another user''s quote like') from u;

select tests.clear_authentication();
with d as (delete from public.quote_likes returning 1)
select is(count(*)::int, 0, 'a visitor cannot remove quote likes') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.quote_likes where user_id = tests.get_supabase_uid('creator_b') returning 1)
select is(count(*)::int, 0, 'a learner cannot remove another user''s quote like') from d;

select tests.authenticate_as('admin_a');
with d as (delete from public.quote_likes where user_id = tests.get_supabase_uid('creator_b') returning 1)
select is(count(*)::int, 0, 'an admin cannot remove a user''s quote like') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.quote_likes where user_id = tests.get_supabase_uid('learner_a') returning 1)
select is(count(*)::int, 1, 'a learner unlikes a quote') from d;

select tests.authenticate_as_superuser();
select results_eq(
  $$ select q.body, q.like_count, (select count(*)::int from public.quote_likes l where l.quote_id = q.id)
     from public.quotes q where q.type = 'text' order by q.body $$,
  $$ values ('A learns from A public', 0, 0), ('A on A private', 1, 1), ('B on A public, revised', 1, 1) $$,
  'after the unlike every quote''s like_count equals count(*) of its likes'
);

-- quotes · delete --------------------------------------------------------------------

select tests.clear_authentication();
with d as (delete from public.quotes returning 1)
select is(count(*)::int, 0, 'a visitor cannot delete quotes') from d;

select tests.authenticate_as('learner_a');
with d as (delete from public.quotes where id = tests.quote_id('B on A public, revised') returning 1)
select is(count(*)::int, 0, 'a learner cannot delete another user''s quote') from d;

select tests.authenticate_as('creator_a');
with d as (delete from public.quotes where id = tests.quote_id('B on A public, revised') returning 1)
select is(count(*)::int, 0, 'the quoted video''s creator cannot delete someone else''s quote') from d;

select tests.authenticate_as_superuser();
select is((select count(*)::int from public.quotes), 4, 'after the denied deletes every quote is still there');

select tests.authenticate_as('learner_a');
with d as (delete from public.quotes where id = tests.quote_id('A learns from A public') returning 1)
select is(count(*)::int, 1, 'a learner deletes their own quote') from d;

select tests.authenticate_as('admin_a');
with d as (delete from public.quotes where id = tests.quote_id('B on A public, revised') returning 1)
select is(count(*)::int, 1, 'an admin deletes another user''s quote') from d;

select tests.authenticate_as_superuser();
select results_eq(
  $$ select v.title, v.quote_count, (select count(*)::int from public.quotes q where q.video_id = v.id)
     from public.videos v order by v.title $$,
  $$ values ('A private', 1, 1), ('A public', 1, 1) $$,
  'after the deletes every quote_count equals count(*) of its quotes'
);
select is((select count(*)::int from public.quote_likes), 1, 'a deleted quote takes its likes with it');

select * from finish();
rollback;
