-- 130 · The delete rules as functions (can_delete_video, can_delete_quote, can_delete_comment).
-- Proves: for every identity the function the app asks agrees with what the delete
-- policy lets through (the policies call the same functions), and visitors may not
-- call them at all.
begin;
select plan(24);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
insert into public.comments (video_id, user_id, body) values
  (tests.video_id('A public'), tests.get_supabase_uid('learner_a'), 'Learner A comment');
insert into public.quotes (video_id, user_id, type, body) values
  (tests.video_id('A public'), tests.get_supabase_uid('learner_a'), 'text', 'Learner A quote');

select tests.authenticate_as('creator_a');
select is((select public.can_delete_video(creator_id) from public.videos where title = 'A public'), true, 'the owner may delete their video');
select tests.authenticate_as('admin_a');
select is((select public.can_delete_video(creator_id) from public.videos where title = 'A public'), true, 'an admin may delete any video');
select tests.authenticate_as('creator_b');
select is((select public.can_delete_video(creator_id) from public.videos where title = 'A public'), false, 'another creator may not delete the video');
select tests.authenticate_as('learner_a');
select is((select public.can_delete_video(creator_id) from public.videos where title = 'A public'), false, 'a learner may not delete the video');
select tests.authenticate_as('learner_a');
select is((select public.can_delete_quote(user_id) from public.quotes where body = 'Learner A quote'), true, 'the author may delete their quote');
select tests.authenticate_as('admin_b');
select is((select public.can_delete_quote(user_id) from public.quotes where body = 'Learner A quote'), true, 'an admin may delete any quote');
select tests.authenticate_as('creator_a');
select is((select public.can_delete_quote(user_id) from public.quotes where body = 'Learner A quote'), false, 'the video''s creator may not delete a quote of it');
select tests.authenticate_as('learner_b');
select is((select public.can_delete_quote(user_id) from public.quotes where body = 'Learner A quote'), false, 'another learner may not delete the quote');
select tests.authenticate_as('learner_a');
select is((select public.can_delete_comment(user_id, video_id) from public.comments where body = 'Learner A comment'), true, 'the author may delete their comment');
select tests.authenticate_as('creator_a');
select is((select public.can_delete_comment(user_id, video_id) from public.comments where body = 'Learner A comment'), true, 'the video''s creator may delete a comment on it');
select tests.authenticate_as('admin_a');
select is((select public.can_delete_comment(user_id, video_id) from public.comments where body = 'Learner A comment'), true, 'an admin may delete any comment');
select tests.authenticate_as('creator_b');
select is((select public.can_delete_comment(user_id, video_id) from public.comments where body = 'Learner A comment'), false, 'another creator may not delete the comment');
select tests.authenticate_as('learner_b');
select is((select public.can_delete_comment(user_id, video_id) from public.comments where body = 'Learner A comment'), false, 'another learner may not delete the comment');
select tests.authenticate_as('creator_unverified');
select is((select public.can_delete_comment(user_id, video_id) from public.comments where body = 'Learner A comment'), false, 'an unverified creator may not delete the comment');
select tests.authenticate_as('learner_b');
with d as (delete from public.comments where body = 'Learner A comment' returning 1)
select is((select count(*)::int from d), 0, 'a refused identity deletes no comment');
select tests.authenticate_as('learner_b');
with d as (delete from public.quotes where body = 'Learner A quote' returning 1)
select is((select count(*)::int from d), 0, 'a refused identity deletes no quote');
select tests.authenticate_as('creator_b');
with d as (delete from public.videos where title = 'A public' returning 1)
select is((select count(*)::int from d), 0, 'a refused identity deletes no video');
select tests.authenticate_as('creator_a');
with d as (delete from public.quotes where body = 'Learner A quote' returning 1)
select is((select count(*)::int from d), 0, 'the video''s creator does not delete the quote');
select tests.authenticate_as('creator_a');
with d as (delete from public.comments where body = 'Learner A comment' returning 1)
select is((select count(*)::int from d), 1, 'the video''s creator deletes the comment');
select tests.authenticate_as('admin_a');
with d as (delete from public.quotes where body = 'Learner A quote' returning 1)
select is((select count(*)::int from d), 1, 'an admin deletes the quote');
select tests.authenticate_as('creator_a');
with d as (delete from public.videos where title = 'A public' returning 1)
select is((select count(*)::int from d), 1, 'the owner deletes the video');

select tests.clear_authentication();
select throws_ok($$ select public.can_delete_video(gen_random_uuid()) $$, '42501', null, 'a visitor cannot call can_delete_video');
select throws_ok($$ select public.can_delete_quote(gen_random_uuid()) $$, '42501', null, 'a visitor cannot call can_delete_quote');
select throws_ok($$ select public.can_delete_comment(gen_random_uuid(), gen_random_uuid()) $$, '42501', null, 'a visitor cannot call can_delete_comment');

select * from finish();
rollback;
