-- 470 · For You's catalogue kept per version (ADR 0064).
-- Proves: spark_scores_version's token changes in the same transaction as a write to
-- spark_scores (a spark published, hidden, rescored) and not when a rescore writes nothing;
-- only admins read it and nobody writes it, not even the service role. for_you_signals()
-- answers the caller's own signals only — their follows, Not interested and the sparks they
-- watched — nothing for another learner's; a visitor may not call it; the service role gets
-- no personal signals.
begin;
select plan(20);

select tests.create_cast();
select tests.create_video('creator_a', 'Catalogue one', true, 'natural-sciences-physics', 'spark');
select tests.create_video('creator_b', 'Catalogue two', true, 'other', 'spark');
select tests.create_video('creator_a', 'Catalogue private', false, 'other', 'spark');

create temporary table tokens (label text primary key, token uuid);
grant all on tokens to public;
create function pg_temp.token() returns uuid
  language sql stable security definer
as $$ select v.token from public.spark_scores_version v $$;
grant execute on function pg_temp.token() to public;
insert into tokens values ('start', pg_temp.token());

-- The version follows spark_scores -----------------------------------------------------------------

select is((select count(*)::int from public.spark_scores_version), 1, 'there is one version row');
update public.videos set is_public = true where id = tests.video_id('Catalogue private');
select isnt(pg_temp.token(), (select token from tokens where label = 'start'), 'a spark published changes the token');
insert into tokens values ('published', pg_temp.token());
update public.videos set is_public = false where id = tests.video_id('Catalogue private');
select isnt(pg_temp.token(), (select token from tokens where label = 'published'), 'a spark hidden changes it');
insert into tokens values ('hidden', pg_temp.token());
update public.videos set like_count = 9 where id = tests.video_id('Catalogue one');
select isnt(pg_temp.token(), (select token from tokens where label = 'hidden'), 'a score that moves changes it');
insert into tokens values ('liked', pg_temp.token());
select public.rescore_sparks(null);
select is(pg_temp.token(), (select token from tokens where label = 'liked'), 'a rescore that writes nothing leaves it');
update public.videos set description = 'Now described' where id = tests.video_id('Catalogue one');
select is(pg_temp.token(), (select token from tokens where label = 'liked'), 'so does a change the scores do not hold');

-- Who reads and writes it ------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok($$ select count(*) from public.spark_scores_version $$, '42501', null, 'a visitor cannot read it');
select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.spark_scores_version), 0, 'a learner reads none');
select throws_ok($$ update public.spark_scores_version set token = gen_random_uuid() $$, '42501', null, 'nor writes it');
select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.spark_scores_version), 0, 'a creator reads none');
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.spark_scores_version), 1, 'an admin reads it');
select throws_ok($$ delete from public.spark_scores_version $$, '42501', null, 'but cannot write it');
select tests.authenticate_as_service_role();
select throws_ok($$ update public.spark_scores_version set token = gen_random_uuid() $$, '42501', null,
  'the service role does not write it either');

-- The caller's signals ---------------------------------------------------------------------------

select tests.authenticate_as_superuser();
insert into public.follows (follower_id, creator_id)
values (tests.get_supabase_uid('learner_a'), tests.get_supabase_uid('creator_a'));
insert into public.video_views (video_id, viewer_id, viewer_key, viewed_hour, created_at)
values (tests.video_id('Catalogue two'), tests.get_supabase_uid('learner_a'), tests.get_supabase_uid('learner_a')::text,
        date_trunc('hour', now() - interval '1 hour'), now() - interval '1 hour');
insert into public.not_interested (user_id, video_id, creator_id)
values (tests.get_supabase_uid('learner_a'), tests.video_id('Catalogue one'), tests.get_supabase_uid('creator_a'));

select tests.authenticate_as('learner_a');
select is((select followed from public.for_you_signals()), array[tests.get_supabase_uid('creator_a')],
  'a learner gets their follows');
select is((select watched from public.for_you_signals()), array[tests.video_id('Catalogue two')],
  'the sparks they watched');
select is((select (dismissed_videos, dismissed_creators)::text from public.for_you_signals()),
  (array[tests.video_id('Catalogue one')], array[tests.get_supabase_uid('creator_a')])::text, 'and their Not interested');
select is((select version from public.for_you_signals()), pg_temp.token(), 'with the current version');

select tests.authenticate_as('learner_b');
select is((select (personal, followed, watched, dismissed_videos)::text from public.for_you_signals()),
  (false, '{}'::uuid[], '{}'::uuid[], '{}'::uuid[])::text, 'another learner gets nothing of theirs');

select tests.clear_authentication();
select throws_ok($$ select * from public.for_you_signals() $$, '42501', null, 'a visitor may not call it');
select tests.authenticate_as_service_role();
select is((select (personal, followed, watched)::text from public.for_you_signals()),
  (false, '{}'::uuid[], '{}'::uuid[])::text, 'the service role gets no personal signals');

select * from finish();
rollback;
