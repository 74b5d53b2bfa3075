-- 161 · Nobody reports their own content (ADR 0018).
-- Proves: a creator cannot report their own video (public or private), an author
-- cannot report their own comment or quote, an admin cannot report their own
-- comment; everyone else still reports the same content; public.is_own_content()
-- answers what the app asks to hide the control; visitors cannot call it.
begin;
select plan(13);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);
insert into public.comments (video_id, user_id, body)
values (tests.video_id('A public'), tests.get_supabase_uid('learner_b'), 'My own comment'),
       (tests.video_id('A public'), tests.get_supabase_uid('admin_a'), 'An admin''s comment');
insert into public.quotes (video_id, user_id, body)
values (tests.video_id('A public'), tests.get_supabase_uid('learner_b'), 'My own quote');

select tests.authenticate_as('creator_a');
select throws_ok(
  $$ insert into public.reports (content_type, content_id, reason) values ('video', tests.video_id('A public'), 'spam') $$,
  '42501', null, 'a creator cannot report their own video'
);
select throws_ok(
  $$ insert into public.reports (content_type, content_id, reason) values ('video', tests.video_id('A private'), 'spam') $$,
  '42501', null, 'nor their own private video'
);
select ok(public.is_own_content('video', tests.video_id('A public')), 'is_own_content: the creator''s own video');
select ok(not public.is_own_content('comment', tests.comment_id('My own comment')), 'is_own_content: someone else''s comment');
select lives_ok(
  $$ insert into public.reports (content_type, content_id, reason) values ('comment', tests.comment_id('My own comment'), 'harmful') $$,
  'the creator reports someone else''s comment on their video'
);

select tests.authenticate_as('learner_b');
select throws_ok(
  $$ insert into public.reports (content_type, content_id, reason) values ('comment', tests.comment_id('My own comment'), 'spam') $$,
  '42501', null, 'an author cannot report their own comment'
);
select throws_ok(
  $$ insert into public.reports (content_type, content_id, reason) values ('quote', tests.quote_id('My own quote'), 'spam') $$,
  '42501', null, 'an author cannot report their own quote'
);
select ok(public.is_own_content('quote', tests.quote_id('My own quote')), 'is_own_content: the author''s own quote');
select lives_ok(
  $$ insert into public.reports (content_type, content_id, reason) values ('video', tests.video_id('A public'), 'spam') $$,
  'the author still reports someone else''s video'
);

select tests.authenticate_as('admin_a');
select throws_ok(
  $$ insert into public.reports (content_type, content_id, reason) values ('comment', tests.comment_id('An admin''s comment'), 'spam') $$,
  '42501', null, 'an admin cannot report their own comment either'
);

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.reports (content_type, content_id, reason) values ('quote', tests.quote_id('My own quote'), 'spam') $$,
  'another learner reports the quote'
);

select tests.clear_authentication();
select throws_ok(
  $$ select public.is_own_content('video', tests.video_id('A public')) $$,
  '42501', null, 'a visitor cannot call is_own_content'
);

select tests.authenticate_as_superuser();
select is((select count(*)::int from public.reports), 3, 'only the three allowed reports were stored');

select * from finish();
rollback;
