-- 350 · For You: Not interested, creator strikes, and who sees what the ranking lists (ADR 0045).
-- Proves: a learner marks a spark they can see (and its own creator) as not interested, and
-- reads and takes back only their own; nobody else — another learner, the creator, an admin,
-- a visitor — reads them; a private spark, someone else's row, or another creator cannot be
-- named. A removed report records one strike against the content's owner, which only admins
-- read and nobody writes. for_you_sparks() lists public ready sparks only, never a private or
-- processing one, never the caller's own.
begin;
select plan(22);

select tests.create_cast();
select tests.create_video('creator_a', 'Spark one', true, 'natural-sciences-physics', 'spark');
select tests.create_video('creator_a', 'Spark two', true, 'other', 'spark');
select tests.create_video('creator_b', 'Spark three', true, 'natural-sciences-biology', 'spark');
select tests.create_video('creator_a', 'Spark private', false, 'other', 'spark');
select tests.create_video('creator_b', 'Spark processing', true, 'other', 'spark');
update public.videos set status = 'processing' where id = tests.video_id('Spark processing');

-- Not interested --------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select lives_ok(
  $$ insert into public.not_interested (video_id) values (tests.video_id('Spark one')) $$,
  'a learner marks a spark as not interested');
select lives_ok(
  format($$ insert into public.not_interested (video_id, creator_id) values (%L, %L) $$,
         tests.video_id('Spark three'), tests.get_supabase_uid('creator_b')),
  'and a spark with its creator');
select throws_ok(
  format($$ insert into public.not_interested (video_id, creator_id) values (%L, %L) $$,
         tests.video_id('Spark two'), tests.get_supabase_uid('creator_b')),
  '42501', null, 'not with another creator than the spark''s');
select throws_ok(
  format($$ insert into public.not_interested (video_id) values (%L) $$, tests.video_id('Spark private')),
  '42501', null, 'not on a private spark');
select throws_ok(
  format($$ insert into public.not_interested (user_id, video_id) values (%L, %L) $$,
         tests.get_supabase_uid('learner_b'), tests.video_id('Spark two')),
  '42501', null, 'not for someone else');
select throws_ok(
  format($$ update public.not_interested set creator_id = %L where video_id = %L $$,
         tests.get_supabase_uid('creator_b'), tests.video_id('Spark one')),
  '42501', null, 'nor change a row to another creator');
select is((select count(*)::int from public.not_interested), 2, 'a learner reads their own');

select tests.authenticate_as('learner_b');
select is((select count(*)::int from public.not_interested), 0, 'another learner reads none');
delete from public.not_interested;
select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.not_interested), 0, 'the creator reads none');
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.not_interested), 0, 'an admin reads none');
select tests.clear_authentication();
select throws_ok($$ select count(*) from public.not_interested $$, '42501', null, 'a visitor cannot read the table');

select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.not_interested), 2, 'another learner''s delete took nothing');
delete from public.not_interested where video_id = tests.video_id('Spark one');
select is((select count(*)::int from public.not_interested), 1, 'a learner takes back their own');

-- Creator strikes ------------------------------------------------------------------------------

insert into public.reports (content_type, content_id, reason) values ('video', tests.video_id('Spark two'), 'spam');
select tests.authenticate_as('admin_a');
update public.reports set status = 'removed' where content_id = tests.video_id('Spark two');
select is(
  (select array_agg(creator_id)::text from public.creator_strikes),
  array[tests.get_supabase_uid('creator_a')]::text,
  'a removed report records a strike against the owner, read by admins');
select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.creator_strikes), 0, 'a learner reads no strikes');
select throws_ok(
  format($$ insert into public.creator_strikes (content_type, content_id, creator_id) values ('video', gen_random_uuid(), %L) $$,
         tests.get_supabase_uid('creator_b')),
  '42501', null, 'nobody writes strikes');
select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.creator_strikes), 0, 'the creator reads none either');

-- What the ranking lists ---------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok($$ select * from public.for_you_sparks(null, 50) $$, '42501', null,
  'a visitor does not call the ranking (the server reads their popularity order)');
select tests.authenticate_as('learner_b');
select is(
  (select array_agg(v.title order by v.title)::text from public.for_you_sparks(null, 50) f join public.videos v on v.id = f.video_id),
  '{"Spark one","Spark three"}',
  'a learner is ranked public ready sparks only');
select tests.authenticate_as('learner_a');
select is(
  (select count(*)::int from public.for_you_sparks(null, 50) f where f.video_id in (tests.video_id('Spark private'), tests.video_id('Spark processing'))),
  0, 'a learner never a private or processing one');
select is(
  (select f.score < (select g.score from public.for_you_sparks(null, 50) g where g.video_id = tests.video_id('Spark one'))
     from public.for_you_sparks(null, 50) f where f.video_id = tests.video_id('Spark three')),
  true, 'the spark they are not interested in (and its creator) ranks below');
select tests.authenticate_as('creator_a');
select is(
  (select array_agg(v.title)::text from public.for_you_sparks(null, 50) f join public.videos v on v.id = f.video_id),
  '{"Spark three"}', 'a creator is not ranked their own, even their private one');

select * from finish();
rollback;
