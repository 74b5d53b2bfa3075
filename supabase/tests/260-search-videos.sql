-- 260 · Ranked search of the lists: public.search_videos() (ADR 0023).
-- Proves: it runs as its owner (security definer, empty search_path) but gives each
-- identity no more than the videos select policies would: ready videos of the type,
-- public ones and the caller's own — visitors, learners, unverified and verified
-- creators and admins alike (admins meet other people's private videos in
-- moderation, not in lists); processing, failed and other people's private videos
-- never come out; every word is a prefix and all must match; title matches rank
-- above description matches; hostile text is only words.
begin;
select plan(23);

select tests.create_cast();
select tests.create_video('creator_a', 'Quasar A public', true, 'natural-sciences-physics');
select tests.create_video('creator_a', 'Quasar A private', false, 'natural-sciences-physics');
select tests.create_video('creator_a', 'Quasar A processing', true, 'natural-sciences-physics');
select tests.create_video('creator_a', 'Quasar A failed', true, 'natural-sciences-physics');
select tests.create_video('creator_b', 'Quasar B public', true, 'natural-sciences-biology');
select tests.create_video('creator_b', 'Quasar B private', false, 'natural-sciences-biology');
select tests.create_video('creator_b', 'Quasar B spark', true, 'natural-sciences-biology', 'spark');
select tests.create_video('creator_b', 'Plain B title', true, 'natural-sciences-biology');
select tests.create_video('creator_unverified', 'Quasar U private', false);
select tests.create_video('creator_a', 'Nebula A public', true, 'natural-sciences-physics');

select tests.authenticate_as_superuser();
update public.videos set status = 'processing' where id = tests.video_id('Quasar A processing');
update public.videos set status = 'failed', status_message = 'not a video' where id = tests.video_id('Quasar A failed');
update public.videos set description = 'A word about a quasar.' where id = tests.video_id('Plain B title');

select ok(
  (select p.prosecdef and p.proconfig @> array['search_path=""']
     from pg_proc p where p.oid = 'public.search_videos(text, text, text)'::regprocedure),
  'search_videos is security definer with an empty search_path'
);

-- Who finds what ------------------------------------------------------------------------

select tests.clear_authentication();
select set_eq(
  $$ select id from public.search_videos('quasar', 'video') $$,
  array[tests.video_id('Quasar A public'), tests.video_id('Quasar B public'), tests.video_id('Plain B title')],
  'a visitor finds the public ready videos only'
);

select tests.authenticate_as('learner_a');
select set_eq(
  $$ select id from public.search_videos('quasar', 'video') $$,
  array[tests.video_id('Quasar A public'), tests.video_id('Quasar B public'), tests.video_id('Plain B title')],
  'a learner finds the public ready videos only'
);

select tests.authenticate_as('creator_unverified');
select set_eq(
  $$ select id from public.search_videos('quasar', 'video') $$,
  array[tests.video_id('Quasar A public'), tests.video_id('Quasar B public'), tests.video_id('Plain B title'),
        tests.video_id('Quasar U private')],
  'an unverified creator finds the public ones and their own private one'
);

select tests.authenticate_as('creator_a');
select set_eq(
  $$ select id from public.search_videos('quasar', 'video') $$,
  array[tests.video_id('Quasar A public'), tests.video_id('Quasar B public'), tests.video_id('Plain B title'),
        tests.video_id('Quasar A private')],
  'a creator finds the public ones and their own private one, not their processing or failed ones'
);

select tests.authenticate_as('creator_b');
select set_eq(
  $$ select id from public.search_videos('quasar', 'video') $$,
  array[tests.video_id('Quasar A public'), tests.video_id('Quasar B public'), tests.video_id('Plain B title'),
        tests.video_id('Quasar B private')],
  'another creator finds their own private one and not creator A''s'
);

select tests.authenticate_as('admin_a');
select set_eq(
  $$ select id from public.search_videos('quasar', 'video') $$,
  array[tests.video_id('Quasar A public'), tests.video_id('Quasar B public'), tests.video_id('Plain B title')],
  'an admin''s lists hold the public ready videos (private ones are for moderation)'
);

-- Nothing hidden ever leaks, whoever asks ------------------------------------------------

select tests.clear_authentication();
select is(
  (select count(*)::int from public.search_videos('quasar', 'video') s
    where s.id in (tests.video_id('Quasar A private'), tests.video_id('Quasar B private'),
                   tests.video_id('Quasar U private'), tests.video_id('Quasar A processing'),
                   tests.video_id('Quasar A failed'))),
  0,
  'a visitor never gets a private, processing or failed video'
);

select tests.authenticate_as('learner_b');
select is(
  (select count(*)::int from public.search_videos('quasar', 'video') s
    where s.id in (tests.video_id('Quasar A private'), tests.video_id('Quasar B private'),
                   tests.video_id('Quasar U private'), tests.video_id('Quasar A processing'),
                   tests.video_id('Quasar A failed'))),
  0,
  'a learner never gets a private, processing or failed video'
);

select tests.authenticate_as('admin_b');
select is(
  (select count(*)::int from public.search_videos('quasar', 'video') s
    where s.id in (tests.video_id('Quasar A processing'), tests.video_id('Quasar A failed'))),
  0,
  'an admin never gets a processing or failed video in a list'
);

-- Type, category, words ------------------------------------------------------------------

select tests.clear_authentication();
select set_eq(
  $$ select id from public.search_videos('quasar', 'spark') $$,
  array[tests.video_id('Quasar B spark')],
  'sparks are searched apart from videos'
);
select set_eq(
  $$ select id from public.search_videos('quasar', 'video', 'natural-sciences-physics') $$,
  array[tests.video_id('Quasar A public')],
  'a category narrows the search'
);
select set_eq(
  $$ select id from public.search_videos('QUAS', 'video') $$,
  array[tests.video_id('Quasar A public'), tests.video_id('Quasar B public'), tests.video_id('Plain B title')],
  'each word is a prefix, in any case'
);
select set_eq(
  $$ select id from public.search_videos('quasar public', 'video') $$,
  array[tests.video_id('Quasar A public'), tests.video_id('Quasar B public')],
  'every word must match'
);
select is(
  (select count(*)::int from public.search_videos('quasar nebula', 'video')),
  0,
  'words in different videos match none'
);
select ok(
  (select rank from public.search_videos('quasar', 'video') where id = tests.video_id('Quasar A public'))
    > (select rank from public.search_videos('quasar', 'video') where id = tests.video_id('Plain B title')),
  'a match in the title ranks above one in the description'
);
select is(
  (select created_at from public.search_videos('quasar', 'video') where id = tests.video_id('Quasar A public')),
  (select created_at from public.videos where id = tests.video_id('Quasar A public')),
  'each match comes with its time, for the list''s order'
);

-- Hostile and empty text -----------------------------------------------------------------

select lives_ok(
  $$ select * from public.search_videos('quasar'' | ! :* & (', 'video') $$,
  'tsquery syntax in the text is taken as words, never as syntax'
);
select set_eq(
  $$ select id from public.search_videos('quasar'' | !', 'video') $$,
  array[tests.video_id('Quasar A public'), tests.video_id('Quasar B public'), tests.video_id('Plain B title')],
  'the words around the syntax still find their videos'
);
select is((select count(*)::int from public.search_videos('', 'video')), 0, 'no words find nothing');
select is((select count(*)::int from public.search_videos('<> &&', 'video')), 0, 'only markup finds nothing');
select is((select count(*)::int from public.search_videos(null, 'video')), 0, 'no text finds nothing');

-- Callers ------------------------------------------------------------------------------------

select ok(
  has_function_privilege('anon', 'public.search_videos(text, text, text)', 'execute')
    and has_function_privilege('authenticated', 'public.search_videos(text, text, text)', 'execute'),
  'visitors and users may call it (the lists are theirs)'
);

select * from finish();
rollback;
