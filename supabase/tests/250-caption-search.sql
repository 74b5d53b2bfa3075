-- 250 · Search inside what is said: public.search_captions (ADR 0019).
-- Proves: the function is security definer with an empty search_path, signed-in users may
-- call it and visitors may not; it applies the videos select policies itself, role by
-- role — learners find public videos only, a creator also their own private ones (not another creator's),
-- an unverified creator nothing private, admins everything — and never returns a video
-- that is processing or failed, whoever asks; it returns the best-matching cue with its
-- start; every word must match (as a prefix); the type filter works; hostile text is
-- words, not tsquery syntax. And the profile setting "captions on by default": private
-- (no one reads another's), set by its owner only.
begin;
select plan(32);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);
select tests.create_video('creator_a', 'A processing', true);
select tests.create_video('creator_a', 'A failed', false);
select tests.create_video('creator_b', 'B private', false);
select tests.create_video('creator_b', 'B spark', true, 'other', 'spark');
update public.videos set status = 'processing', hls_path = null, mp4_path = null where title = 'A processing';
update public.videos set status = 'failed' where title = 'A failed';

-- Every video says "entropy"; each also says its own title's words.
insert into public.caption_tracks (video_id, language, label, created_by)
select v.id, 'en', 'English', v.creator_id from public.videos v;
insert into public.caption_cues (track_id, video_id, seq, start_ms, end_ms, body)
select t.id, t.video_id, s.seq, s.seq * 5000, s.seq * 5000 + 4000,
       case s.seq when 0 then 'Welcome to this lesson.'
                  when 1 then 'Entropy measures disorder in ' || v.title || '.'
                  else 'Entropy never decreases in an isolated system.' end
  from public.caption_tracks t
  join public.videos v on v.id = t.video_id,
  generate_series(0, 2) as s(seq);

create function pg_temp.ids(words text) returns uuid[]
  language sql
as $$ select coalesce(array_agg(s.video_id order by s.video_id), '{}') from public.search_captions(words) s $$;
create function pg_temp.ids_of(variadic titles text[]) returns uuid[]
  language sql
as $$ select coalesce(array_agg(id order by id), '{}') from unnest(titles) t, lateral (select tests.video_id(t) as id) x $$;
grant execute on all functions in schema pg_temp to anon, authenticated;

-- The function itself ------------------------------------------------------------------

select ok(
  (select prosecdef and proconfig @> array['search_path=""'] from pg_proc where oid = 'public.search_captions(text, text, integer)'::regprocedure),
  'search_captions is security definer with an empty search_path'
);
select ok(has_function_privilege('authenticated', 'public.search_captions(text, text, integer)', 'execute'), 'signed-in users may call it');

-- Who finds what ------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok($$ select * from public.search_captions('entropy') $$, '42501', null, 'visitors may not call it');
select tests.authenticate_as('learner_b');
select is(pg_temp.ids('processing'), '{}'::uuid[], 'a learner never finds a processing video');

select tests.authenticate_as('learner_a');
select is(pg_temp.ids('entropy'), pg_temp.ids_of('A public', 'B spark'), 'a learner finds the public ready videos only');
select is(pg_temp.ids('private'), '{}'::uuid[], 'a learner finds nothing said in a private video');
select is(pg_temp.ids('failed'), '{}'::uuid[], 'nor in a failed one');

select tests.authenticate_as('creator_a');
select is(pg_temp.ids('entropy'), pg_temp.ids_of('A public', 'A private', 'B spark'), 'a creator also finds their own private video');
select is(pg_temp.ids('processing'), '{}'::uuid[], 'but not their own processing video');
select is(pg_temp.ids('failed'), '{}'::uuid[], 'nor their own failed one');
select is(pg_temp.ids('B private'), '{}'::uuid[], 'nor another creator''s private video');

select tests.authenticate_as('creator_b');
select is(pg_temp.ids('private'), pg_temp.ids_of('B private'), 'the other creator finds only their own private video');

select tests.authenticate_as('creator_unverified');
select is(pg_temp.ids('entropy'), pg_temp.ids_of('A public', 'B spark'), 'an unverified creator finds the public ready videos only');

select tests.authenticate_as('admin_a');
select is(pg_temp.ids('entropy'), pg_temp.ids_of('A public', 'A private', 'B private', 'B spark'), 'an admin finds every ready video');
select is(pg_temp.ids('processing'), '{}'::uuid[], 'but no processing video either');

-- What comes back -------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select is(
  (select row(s.body, s.start_ms, s.end_ms, s.language)::text from public.search_captions('disorder public') s),
  row('Entropy measures disorder in A public.', 5000, 9000, 'en')::text,
  'a hit carries the matching line, its start and end, and the language'
);
select is(
  (select s.start_ms from public.search_captions('entropy') s where s.video_id = tests.video_id('A public')),
  5000,
  'one row per video: the best line, the earliest among equals'
);
select is(pg_temp.ids('disord'), pg_temp.ids_of('A public', 'B spark'), 'every word is a prefix');
select is(pg_temp.ids('entropy spark'), pg_temp.ids_of('B spark'), 'and every word must match');
select is(
  (select count(*)::int from public.search_captions('entropy', 'spark')),
  1,
  'the type filter keeps sparks only'
);
select is((select count(*)::int from public.search_captions('entropy', null, 1)), 1, 'max_videos bounds the rows');
select lives_ok($$ select * from public.search_captions($q$'):* | !entropy & (x$q$) $$, 'hostile text is searched as words');
select is(pg_temp.ids($q$'):* | !$q$), '{}'::uuid[], 'text without words finds nothing');
select is(pg_temp.ids(null), '{}'::uuid[], 'a null search finds nothing');

-- Captions on by default (profiles.captions_on) ----------------------------------------

select tests.authenticate_as('learner_a');
select is(public.profile_captions_on(), false, 'captions are off by default');
update public.profiles set captions_on = true where id = tests.get_supabase_uid('learner_a');
select is(public.profile_captions_on(), true, 'a learner turns captions on by default for themself');
select throws_ok(
  $$ select captions_on from public.profiles where id = tests.get_supabase_uid('learner_a') $$,
  '42501', null,
  'not even its owner selects the column directly (the function answers)'
);

select tests.authenticate_as('learner_b');
select is(public.profile_captions_on(), false, 'another learner still has their own setting');
select throws_ok(
  $$ select captions_on from public.profiles where id = tests.get_supabase_uid('learner_a') $$,
  '42501', null,
  'nobody reads another''s setting'
);
with u as (update public.profiles set captions_on = false where id = tests.get_supabase_uid('learner_a') returning 1)
select is((select count(*)::int from u), 0, 'nobody changes another''s setting');

select tests.authenticate_as('creator_unverified');
select is(public.profile_captions_on(), false, 'an unverified creator reads their own (off)');

select tests.clear_authentication();
select throws_ok($$ select public.profile_captions_on() $$, '42501', null, 'a visitor has no setting to read');

select * from finish();
rollback;
