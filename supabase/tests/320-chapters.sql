-- 320 · Chapters of a video (ADR 0042).
-- Proves: whoever can see a video reads its chapters (a visitor and a learner a public
-- one's, nobody else a private one's); its creator and an admin replace them, another
-- creator and a learner change nothing; Postgres refuses every list that breaks a rule
-- (too few, the first not at 0, less than 10 s apart, out of order, a blank or padded
-- title, a fraction of a second, extra keys, the last one too close to the end) and
-- accepts none; the service role (the media worker) is not held to the length.
begin;
select plan(23);

select tests.create_cast();
select tests.create_video('creator_a', 'Chaptered', true);
select tests.create_video('creator_a', 'Hidden', false);

select tests.authenticate_as_superuser();
update public.videos
   set chapters = '[{"start":0,"title":"Intro"},{"start":60,"title":"Middle"},{"start":120,"title":"End"}]'
 where id in (tests.video_id('Chaptered'), tests.video_id('Hidden'));

-- Reading ------------------------------------------------------------------------------

select tests.clear_authentication();
select is((select jsonb_array_length(chapters) from public.videos where id = tests.video_id('Chaptered')), 3,
  'a visitor reads a public video''s chapters');
select is((select count(*)::int from public.videos where id = tests.video_id('Hidden')), 0,
  'a visitor reads nothing of a private video');

select tests.authenticate_as('learner_a');
select is((select chapters -> 1 ->> 'title' from public.videos where id = tests.video_id('Chaptered')), 'Middle',
  'a learner reads a public video''s chapters');
select is((select count(*)::int from public.videos where id = tests.video_id('Hidden')), 0,
  'a learner reads nothing of someone else''s private video');

-- Writing ------------------------------------------------------------------------------

update public.videos set chapters = '[]' where id = tests.video_id('Chaptered');
select tests.authenticate_as('creator_b');
update public.videos set chapters = '[]' where id = tests.video_id('Chaptered');
select tests.clear_authentication();
update public.videos set chapters = '[]' where id = tests.video_id('Chaptered');
select tests.authenticate_as_superuser();
select is((select jsonb_array_length(chapters) from public.videos where id = tests.video_id('Chaptered')), 3,
  'a learner, another creator and a visitor change nothing');

select tests.authenticate_as('creator_a');
select lives_ok(
  $$ update public.videos set chapters = '[{"start":0,"title":"A"},{"start":10,"title":"B"},{"start":20,"title":"C"},{"start":290,"title":"D"}]'
      where id = tests.video_id('Chaptered') $$,
  'the creator replaces the chapters (each 10 s, the last 10 s before the end)');
select is((select jsonb_array_length(chapters) from public.videos where id = tests.video_id('Chaptered')), 4,
  'the creator''s list is stored');
select is((select chapters ->> 0 from public.videos where id = tests.video_id('Hidden')), '{"start": 0, "title": "Intro"}',
  'the creator reads their private video''s chapters');

select tests.authenticate_as('admin_a');
select lives_ok($$ update public.videos set chapters = '[]' where id = tests.video_id('Chaptered') $$,
  'an admin removes them');
select is((select chapters from public.videos where id = tests.video_id('Chaptered')), '[]'::jsonb, 'none is a valid list');

-- The rules -----------------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select throws_ok($$ update public.videos set chapters = '[{"start":0,"title":"A"},{"start":10,"title":"B"}]'
  where id = tests.video_id('Chaptered') $$, '23514', null, 'two chapters are too few');
select throws_ok($$ update public.videos set chapters = '[{"start":5,"title":"A"},{"start":15,"title":"B"},{"start":25,"title":"C"}]'
  where id = tests.video_id('Chaptered') $$, '23514', null, 'the first chapter starts at 0');
select throws_ok($$ update public.videos set chapters = '[{"start":0,"title":"A"},{"start":9,"title":"B"},{"start":25,"title":"C"}]'
  where id = tests.video_id('Chaptered') $$, '23514', null, 'a chapter lasts at least 10 s');
select throws_ok($$ update public.videos set chapters = '[{"start":0,"title":"A"},{"start":40,"title":"B"},{"start":20,"title":"C"}]'
  where id = tests.video_id('Chaptered') $$, '23514', null, 'chapters are in time order');
select throws_ok($$ update public.videos set chapters = '[{"start":0,"title":"A"},{"start":10,"title":" "},{"start":20,"title":"C"}]'
  where id = tests.video_id('Chaptered') $$, '23514', null, 'a title is not blank');
select throws_ok($$ update public.videos set chapters = '[{"start":0,"title":"A"},{"start":10,"title":" B"},{"start":20,"title":"C"}]'
  where id = tests.video_id('Chaptered') $$, '23514', null, 'a title has no surrounding spaces');
select throws_ok($$ update public.videos set chapters = jsonb_build_array(jsonb_build_object('start', 0, 'title', repeat('x', 101)),
  '{"start":10,"title":"B"}'::jsonb, '{"start":20,"title":"C"}'::jsonb) where id = tests.video_id('Chaptered') $$,
  '23514', null, 'a title is at most 100 characters');
select throws_ok($$ update public.videos set chapters = '[{"start":0,"title":"A"},{"start":10.5,"title":"B"},{"start":20,"title":"C"}]'
  where id = tests.video_id('Chaptered') $$, '23514', null, 'a start is a whole second');
select throws_ok($$ update public.videos set chapters = '[{"start":0,"title":"A","x":1},{"start":10,"title":"B"},{"start":20,"title":"C"}]'
  where id = tests.video_id('Chaptered') $$, '23514', null, 'a chapter has a start and a title and nothing else');
select throws_ok($$ update public.videos set chapters = '{"start":0}' where id = tests.video_id('Chaptered') $$,
  '23514', null, 'the chapters are a list');
select throws_ok($$ update public.videos set chapters = '[{"start":0,"title":"A"},{"start":10,"title":"B"},{"start":291,"title":"C"}]'
  where id = tests.video_id('Chaptered') $$, '23514', null, 'the last chapter lasts 10 s before the end too');

select tests.authenticate_as_service_role();
select lives_ok($$ update public.videos set chapters = '[{"start":0,"title":"A"},{"start":10,"title":"B"},{"start":299,"title":"C"}]'
  where id = tests.video_id('Chaptered') $$, 'the service role is not held to the length');
select throws_ok($$ update public.videos set chapters = '[{"start":0,"title":"A"},{"start":10,"title":"B"}]'
  where id = tests.video_id('Chaptered') $$, '23514', null, 'but the list''s own rules hold for it too');

select * from finish();
rollback;
