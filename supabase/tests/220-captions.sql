-- 220 · Caption tracks and cues (ADR 0019).
-- Proves: whoever can see a video reads its captions and nobody else does; only the
-- video's creator and admins add, change or delete tracks and cues (learners, other
-- creators, unverified creators and visitors cannot); a cue always belongs to its
-- track's video; at most 20 tracks per video; tracks and cues go with their video.
begin;
select plan(25);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);
select tests.create_video('creator_b', 'B public', true);

-- Who may write -----------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select lives_ok(
  $$ insert into public.caption_tracks (video_id, language, label, cue_count)
     values (tests.video_id('A public'), 'en', 'English', 2) $$,
  'the creator adds a track to their video'
);
select lives_ok(
  $$ insert into public.caption_cues (track_id, video_id, seq, start_ms, end_ms, body)
     select t.id, t.video_id, s.seq, s.seq * 1000, s.seq * 1000 + 900, 'Kinetic energy line ' || s.seq
       from public.caption_tracks t, generate_series(0, 1) as s(seq)
      where t.video_id = tests.video_id('A public') $$,
  'the creator adds its cues'
);
select lives_ok(
  $$ insert into public.caption_tracks (video_id, language, label) values (tests.video_id('A private'), 'pt-BR', 'Português (Brasil)') $$,
  'the creator captions a private video too, with a region subtag'
);
select throws_ok(
  $$ insert into public.caption_tracks (video_id, language, label) values (tests.video_id('A public'), 'en', 'Again') $$,
  '23505', null,
  'one track per language per video'
);
select throws_ok(
  $$ insert into public.caption_tracks (video_id, language, label) values (tests.video_id('A public'), 'english!', 'Bad tag') $$,
  '23514', null,
  'the language must be a BCP 47 tag'
);
select throws_ok(
  $$ insert into public.caption_tracks (video_id, language, label) values (tests.video_id('B public'), 'en', 'Not mine') $$,
  '42501', null,
  'a creator cannot caption another creator''s video'
);

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ insert into public.caption_tracks (video_id, language, label) values (tests.video_id('A public'), 'fr', 'Français') $$,
  '42501', null,
  'a learner cannot add a track'
);
select throws_ok(
  $$ insert into public.caption_cues (track_id, video_id, seq, start_ms, end_ms, body)
     select t.id, t.video_id, 9, 0, 1, 'forged' from public.caption_tracks t where t.video_id = tests.video_id('A public') $$,
  '42501', null,
  'a learner cannot add a cue to someone''s track'
);
with d as (delete from public.caption_cues where video_id = tests.video_id('A public') returning 1)
select is((select count(*)::int from d), 0, 'a learner deletes no cue');
with u as (update public.caption_tracks set label = 'Defaced' where video_id = tests.video_id('A public') returning 1)
select is((select count(*)::int from u), 0, 'a learner changes no track');

select tests.authenticate_as('creator_unverified');
select throws_ok(
  $$ insert into public.caption_tracks (video_id, language, label) values (tests.video_id('A public'), 'fr', 'Français') $$,
  '42501', null,
  'an unverified creator cannot add a track to another''s video'
);

select tests.authenticate_as('creator_b');
with d as (delete from public.caption_tracks where video_id = tests.video_id('A public') returning 1)
select is((select count(*)::int from d), 0, 'another creator deletes no track');

select tests.clear_authentication();
select throws_ok(
  $$ insert into public.caption_tracks (video_id, language, label) values (tests.video_id('A public'), 'de', 'Deutsch') $$,
  '42501', null,
  'a visitor cannot add a track'
);

select tests.authenticate_as('admin_a');
select lives_ok(
  $$ insert into public.caption_tracks (video_id, language, label) values (tests.video_id('B public'), 'es', 'Español') $$,
  'an admin captions any video'
);

-- A cue belongs to its track's video --------------------------------------------------

select tests.authenticate_as('creator_a');
select throws_ok(
  $$ insert into public.caption_cues (track_id, video_id, seq, start_ms, end_ms, body)
     select t.id, tests.video_id('A private'), 5, 0, 1, 'wrong video'
       from public.caption_tracks t where t.video_id = tests.video_id('A public') $$,
  '23503', null,
  'a cue cannot claim another video than its track''s'
);

-- Who may read ------------------------------------------------------------------------

select tests.clear_authentication();
select is((select count(*)::int from public.caption_cues where video_id = tests.video_id('A public')), 2, 'a visitor reads the cues of a public video');
select is((select count(*)::int from public.caption_tracks where video_id = tests.video_id('A private')), 0, 'a visitor reads no track of a private video');

select tests.authenticate_as('learner_a');
select is(
  (select count(*)::int from public.caption_cues where search @@ plainto_tsquery('simple', 'kinetic energy')),
  2,
  'a learner finds what is said in a public video'
);
select is((select count(*)::int from public.caption_tracks where video_id = tests.video_id('A private')), 0, 'a learner reads no track of another''s private video');

select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.caption_tracks where video_id = tests.video_id('A private')), 1, 'the creator reads the track of their private video');

-- Limits and clean-up -----------------------------------------------------------------

select tests.authenticate_as('creator_a');
insert into public.caption_tracks (video_id, language, label)
select tests.video_id('A private'), 'x' || chr(97 + n / 26) || chr(97 + n % 26), 'Track ' || n from generate_series(0, 18) as n;
select is((select count(*)::int from public.caption_tracks where video_id = tests.video_id('A private')), 20, 'a video takes 20 tracks');
select throws_ok(
  $$ insert into public.caption_tracks (video_id, language, label) values (tests.video_id('A private'), 'zz', 'One too many') $$,
  '23514', 'A video can have at most 20 caption tracks',
  'but not a 21st'
);

with d as (delete from public.caption_tracks where video_id = tests.video_id('A public') returning 1)
select is((select count(*)::int from d), 1, 'the creator deletes their track');
select tests.authenticate_as_superuser();
select is((select count(*)::int from public.caption_cues where video_id = tests.video_id('A public')), 0, 'its cues go with it');
delete from public.videos where title = 'B public';
select is((select count(*)::int from public.caption_tracks where language = 'es'), 0, 'a deleted video takes its tracks with it');

select * from finish();
rollback;
