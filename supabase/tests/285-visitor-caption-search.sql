-- 285 · Visitors search inside what is said: public.search_public_captions (ADR 0026).
-- Proves: security definer with an empty search_path; visitors may call it, signed-in users
-- may not (they have search_captions); a visitor finds the cues of public ready videos only —
-- never of a private, processing or failed video, nor of one made private later — exactly what
-- the anon select policies let a visitor read from caption_cues directly; the best cue comes
-- back with its start; the type filter works; hostile text is only words.
begin;
select plan(16);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);
select tests.create_video('creator_a', 'A processing', true);
select tests.create_video('creator_a', 'A failed', true);
select tests.create_video('creator_b', 'B public', true);
select tests.create_video('creator_b', 'B private', false);
select tests.create_video('creator_b', 'B spark', true, 'other', 'spark');

select tests.authenticate_as_superuser();
update public.videos set status = 'processing', hls_path = null, mp4_path = null where id = tests.video_id('A processing');
update public.videos set status = 'failed', status_message = 'not a video' where id = tests.video_id('A failed');

-- Every video says "entropy"; each also says its own title's words, at 5 s.
insert into public.caption_tracks (video_id, language, label, created_by)
select v.id, 'en', 'English', v.creator_id from public.videos v;
insert into public.caption_cues (track_id, video_id, seq, start_ms, end_ms, body)
select t.id, t.video_id, s.seq, s.seq * 5000, s.seq * 5000 + 4000,
       case s.seq when 0 then 'Welcome to this lesson.'
                  when 1 then 'Quasars and entropy in ' || v.title || '.'
                  else 'Entropy never decreases in an isolated system.' end
  from public.caption_tracks t
  join public.videos v on v.id = t.video_id,
  generate_series(0, 2) as s(seq);

create function pg_temp.ids(words text, video_type text default null) returns uuid[]
  language sql
as $$ select coalesce(array_agg(s.video_id order by s.video_id), '{}') from public.search_public_captions(words, video_type) s $$;
create function pg_temp.ids_of(variadic titles text[]) returns uuid[]
  language sql
as $$ select coalesce(array_agg(id order by id), '{}') from unnest(titles) t, lateral (select tests.video_id(t) as id) x $$;
grant execute on all functions in schema pg_temp to anon, authenticated;

select ok(
  (select prosecdef and proconfig @> array['search_path=""'] from pg_proc
    where oid = 'public.search_public_captions(text, text, integer)'::regprocedure),
  'search_public_captions is security definer with an empty search_path'
);
select ok(has_function_privilege('anon', 'public.search_public_captions(text, text, integer)', 'execute'), 'visitors may call it');
select ok(not has_function_privilege('authenticated', 'public.search_public_captions(text, text, integer)', 'execute'),
  'signed-in users may not (they search with search_captions)');

-- What a visitor finds ------------------------------------------------------------------

select tests.clear_authentication();
select is(pg_temp.ids('entropy'), pg_temp.ids_of('A public', 'B public', 'B spark'), 'a visitor finds the public ready videos only');
select is(pg_temp.ids('private'), '{}'::uuid[], 'never a line said in a private video');
select is(pg_temp.ids('processing'), '{}'::uuid[], 'never a processing video, though public');
select is(pg_temp.ids('failed'), '{}'::uuid[], 'never a failed video');
select is(pg_temp.ids('B public'), pg_temp.ids_of('B public'), 'every word must match');
select is(pg_temp.ids('entropy', 'spark'), pg_temp.ids_of('B spark'), 'the type filter keeps sparks apart');
select is(
  (select start_ms from public.search_public_captions('quasars') where video_id = tests.video_id('A public')),
  5000,
  'the hit is the best-matching cue, with its start'
);
select is(
  array(select s.video_id from public.search_public_captions('entropy') s
         where not exists (select 1 from public.caption_cues c where c.video_id = s.video_id and c.track_id = s.track_id)),
  '{}'::uuid[],
  'every hit is a cue the visitor could read from caption_cues directly'
);
select is(pg_temp.ids($$entropy') | ('private$$), '{}'::uuid[], 'hostile text is only words, not tsquery syntax');
select is(pg_temp.ids(''), '{}'::uuid[], 'no words, no hits');

-- A video made private is gone at once.
select tests.authenticate_as_superuser();
update public.videos set is_public = false where id = tests.video_id('B public');
select tests.clear_authentication();
select is(pg_temp.ids('entropy'), pg_temp.ids_of('A public', 'B spark'), 'a video made private is no longer found');

-- Signed-in users are refused (their search is search_captions) ----------------------------

select tests.authenticate_as('learner_a');
select throws_ok($$ select * from public.search_public_captions('entropy') $$, '42501', null, 'a learner may not call it');
select tests.authenticate_as('admin_a');
select throws_ok($$ select * from public.search_public_captions('entropy') $$, '42501', null, 'nor may an admin');

select * from finish();
rollback;
