-- 340 · Private timestamped notes on videos (ADR 0044).
-- Proves: a learner adds notes at moments of videos they can see, reads, changes and
-- removes only their own; another learner, the video's creator, an admin and a visitor
-- read, change and remove none of them; nobody adds a note for someone else, on a video
-- they cannot see, or moves a note to another learner or video; the moment and the text
-- are checked; deleting the video or the account removes the notes.
begin;
select plan(30);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A second', true);
select tests.create_video('creator_a', 'A private', false);

-- Adding ------------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.video_notes (video_id, at_seconds, body) values (tests.video_id('A public'), 7, 'Mitochondria at 0:07') $$,
  'a learner adds a note at a moment');
select is((select user_id from public.video_notes where body = 'Mitochondria at 0:07'), tests.get_supabase_uid('learner_a'),
  'the note is theirs');
select lives_ok(
  $$ insert into public.video_notes (video_id, at_seconds, body) values (tests.video_id('A public'), 42, 'Second thought') $$,
  'several notes on one video');
select lives_ok(
  $$ insert into public.video_notes (video_id, at_seconds, body) values (tests.video_id('A second'), 0, 'Another video') $$,
  'notes on another video');
select throws_ok(
  $$ insert into public.video_notes (user_id, video_id, at_seconds, body)
     values (tests.get_supabase_uid('learner_b'), tests.video_id('A public'), 1, 'Planted') $$,
  '42501', null, 'nobody adds a note for someone else');
select throws_ok(
  $$ insert into public.video_notes (video_id, at_seconds, body) values (tests.video_id('A private'), 1, 'Peeking') $$,
  '42501', null, 'nor on someone else''s private video');
select throws_ok(
  $$ insert into public.video_notes (video_id, at_seconds, body) values (tests.video_id('A public'), -1, 'Before') $$,
  '23514', null, 'a moment before the start is refused');
select throws_ok(
  $$ insert into public.video_notes (video_id, at_seconds, body) values (tests.video_id('A public'), 86401, 'Too late') $$,
  '23514', null, 'a moment past a day is refused');
select throws_ok(
  $$ insert into public.video_notes (video_id, at_seconds, body) values (tests.video_id('A public'), 1, '   ') $$,
  '23514', null, 'an empty note is refused');
select throws_ok(
  $$ insert into public.video_notes (video_id, at_seconds, body) values (tests.video_id('A public'), 1, repeat('x', 2001)) $$,
  '23514', null, 'a note over 2000 characters is refused');

select tests.authenticate_as('learner_b');
select lives_ok(
  $$ insert into public.video_notes (video_id, at_seconds, body) values (tests.video_id('A public'), 3, 'B''s own') $$,
  'another learner adds their own');

select tests.authenticate_as('creator_a');
select lives_ok(
  $$ insert into public.video_notes (video_id, at_seconds, body) values (tests.video_id('A private'), 5, 'Creator''s own') $$,
  'the creator notes their own private video');

-- Reading ------------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select is((select array_agg(body order by at_seconds, body) from public.video_notes),
  array['Another video', 'Mitochondria at 0:07', 'Second thought'], 'a learner reads only their own notes');

select tests.authenticate_as('learner_b');
select is((select array_agg(body) from public.video_notes), array['B''s own'], 'the other learner reads only theirs');

select tests.authenticate_as('creator_a');
select is((select array_agg(body) from public.video_notes), array['Creator''s own'],
  'the video''s creator reads none of the learners'' notes on it');

select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.video_notes), 0, 'an admin reads nobody''s notes');

select tests.clear_authentication();
select throws_ok($$ select count(*) from public.video_notes $$, '42501', null, 'a visitor cannot read the table');
select throws_ok(
  $$ insert into public.video_notes (video_id, at_seconds, body) values (tests.video_id('A public'), 1, 'Anon') $$,
  '42501', null, 'a visitor cannot add a note');

-- Changing and removing ----------------------------------------------------------------------

select tests.authenticate_as('learner_b');
update public.video_notes set body = 'Hijacked' where body = 'Mitochondria at 0:07';
delete from public.video_notes where body = 'Second thought';
select tests.authenticate_as('admin_a');
update public.video_notes set body = 'Moderated';
delete from public.video_notes;
select tests.authenticate_as('creator_a');
update public.video_notes set body = 'Edited by creator' where body <> 'Creator''s own';
delete from public.video_notes where body <> 'Creator''s own';
select tests.authenticate_as_superuser();
select is((select count(*)::int from public.video_notes where user_id = tests.get_supabase_uid('learner_a')), 3,
  'another learner, an admin and the creator remove none of a learner''s notes');
select is((select count(*)::int from public.video_notes where body in ('Hijacked', 'Moderated', 'Edited by creator')), 0,
  'nor change them');

select tests.authenticate_as('learner_a');
update public.video_notes set body = 'Mitochondria, edited', at_seconds = 8, updated_at = now()
 where body = 'Mitochondria at 0:07';
select is((select at_seconds from public.video_notes where body = 'Mitochondria, edited'), 8,
  'a learner changes their own note''s text and moment');
select throws_ok(
  $$ update public.video_notes set video_id = tests.video_id('A second') where body = 'Mitochondria, edited' $$,
  '42501', null, 'a note does not move to another video');
select throws_ok(
  $$ update public.video_notes set user_id = tests.get_supabase_uid('learner_b') $$,
  '42501', null, 'nor to another learner');
select throws_ok(
  $$ update public.video_notes set body = '' where body = 'Mitochondria, edited' $$,
  '23514', null, 'an edit to an empty note is refused');
delete from public.video_notes where body = 'Second thought';
select is((select count(*)::int from public.video_notes), 2, 'a learner removes their own note');
select tests.authenticate_as_superuser();
select is((select count(*)::int from public.video_notes where user_id = tests.get_supabase_uid('learner_b')), 1,
  'the other learner''s notes stay');

-- Cascades ------------------------------------------------------------------------------

delete from public.videos where id = tests.video_id('A public');
select is((select count(*)::int from public.video_notes where user_id = tests.get_supabase_uid('learner_b')), 0,
  'deleting the video removes its notes');
select is((select array_agg(body) from public.video_notes where user_id = tests.get_supabase_uid('learner_a')),
  array['Another video'], 'other videos'' notes stay');
delete from auth.users where id = tests.get_supabase_uid('learner_a');
select is((select count(*)::int from public.video_notes where body = 'Another video'), 0,
  'deleting the account removes its notes');
select is((select count(*)::int from public.video_notes), 1, 'the creator''s own note stays');

select * from finish();
rollback;
