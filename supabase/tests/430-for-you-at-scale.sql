-- 430 · For You at scale: the kept per-spark score (spark_scores, ADR 0052).
-- Proves: the table holds exactly the public ready sparks and follows them — a spark made
-- public or ready joins, one made private or deleted leaves, a long video never joins; its
-- base follows likes, comments, views, completion, the creator's verification and strikes.
-- Nobody writes it directly (not even the service role); only admins read it (the standing
-- in it reflects strikes); a visitor, a learner, another learner and a creator read none.
-- rescore_sparks() is the triggers' and the service role's alone.
begin;
select plan(27);

select tests.create_cast();
select tests.create_video('creator_a', 'Scored one', true, 'natural-sciences-physics', 'spark');
select tests.create_video('creator_b', 'Scored two', true, 'natural-sciences-biology', 'spark');
select tests.create_video('creator_a', 'Scored private', false, 'other', 'spark');
select tests.create_video('creator_a', 'Scored long', true, 'other', 'video');

create function pg_temp.base_of(title text) returns real
  language sql stable
as $$ select s.base from public.spark_scores s where s.video_id = tests.video_id(title) $$;

create function pg_temp.scored_titles() returns text
  language sql stable
as $$
  select coalesce(array_agg(v.title order by v.title), '{}')::text
    from public.spark_scores s join public.videos v on v.id = s.video_id
$$;

-- Which sparks it holds ----------------------------------------------------------------------

select is(pg_temp.scored_titles(), '{"Scored one","Scored two"}', 'it holds the public ready sparks, not a private one or a long video');
update public.videos set is_public = true where id = tests.video_id('Scored private');
select is(pg_temp.scored_titles(), '{"Scored one","Scored private","Scored two"}', 'a spark made public joins');
update public.videos set is_public = false where id = tests.video_id('Scored private');
select is(pg_temp.scored_titles(), '{"Scored one","Scored two"}', 'and leaves when made private again');
update public.videos set status = 'processing' where id = tests.video_id('Scored two');
select is(pg_temp.scored_titles(), '{"Scored one"}', 'a spark being processed again leaves');
update public.videos set status = 'ready' where id = tests.video_id('Scored two');
select is(pg_temp.scored_titles(), '{"Scored one","Scored two"}', 'and joins when ready');
update public.videos set type = 'spark', duration_seconds = 40 where id = tests.video_id('Scored long');
select is(pg_temp.scored_titles(), '{"Scored long","Scored one","Scored two"}', 'a video turned into a spark joins');
delete from public.videos where id = tests.video_id('Scored long');
select is(pg_temp.scored_titles(), '{"Scored one","Scored two"}', 'a deleted spark leaves');
select is(
  (select s.category_id || ' ' || (s.creator_id = tests.get_supabase_uid('creator_a'))::text
     from public.spark_scores s where s.video_id = tests.video_id('Scored one')),
  'natural-sciences-physics true', 'with its category and creator');
update public.videos set category_id = 'media' where id = tests.video_id('Scored one');
select is((select s.category_id from public.spark_scores s where s.video_id = tests.video_id('Scored one')), 'media',
  'a new category follows');

-- What its base follows -----------------------------------------------------------------------

create temporary table base_before as select pg_temp.base_of('Scored one') as one, pg_temp.base_of('Scored two') as two;
select is(pg_temp.base_of('Scored one'),
  public.spark_base_score(0, 0, 0, 0, null, null, true, 0), 'a new spark of a verified creator: its standing alone');

select tests.authenticate_as('learner_a');
insert into public.video_likes (video_id) values (tests.video_id('Scored one'));
select tests.authenticate_as_superuser();
select cmp_ok(pg_temp.base_of('Scored one'), '>', (select one from base_before), 'a like raises it');

create temporary table base_liked as select pg_temp.base_of('Scored one') as one;
select tests.authenticate_as('learner_b');
insert into public.comments (video_id, body) values (tests.video_id('Scored one'), 'A fine clip');
select tests.authenticate_as_superuser();
select cmp_ok(pg_temp.base_of('Scored one'), '>', (select one from base_liked), 'a comment raises it');

update public.videos set view_count = 500 where id = tests.video_id('Scored two');
select cmp_ok(pg_temp.base_of('Scored two'), '>', (select two from base_before), 'views (reach) raise it');

create temporary table base_viewed_first as select pg_temp.base_of('Scored two') as two;
insert into public.video_stats (video_id, plays, watch_seconds, tenths)
values (tests.video_id('Scored two'), 40, 0, array[40, 40, 40, 40, 40, 40, 40, 40, 40, 35]);
select cmp_ok(pg_temp.base_of('Scored two'), '>', (select two from base_viewed_first), 'watch completion raises it');
create temporary table base_viewed as select pg_temp.base_of('Scored two') as two;

update public.profiles set is_verified = false where id = tests.get_supabase_uid('creator_b');
select is(round(((select two from base_viewed) - pg_temp.base_of('Scored two'))::numeric, 3), 0.300,
  'an unverified creator''s sparks lose the verified bonus (0.3)');

create temporary table base_unverified as select pg_temp.base_of('Scored two') as two;
select tests.authenticate_as('creator_b');
insert into public.comments (video_id, body) values (tests.video_id('Scored one'), 'Spam from creator b');
select tests.authenticate_as('learner_a');
insert into public.reports (content_type, content_id, reason)
values ('comment', tests.comment_id('Spam from creator b'), 'spam');
select tests.authenticate_as('admin_a');
update public.reports set status = 'removed' where content_id = tests.comment_id('Spam from creator b');
select tests.authenticate_as_superuser();
select is(round(((select two from base_unverified) - pg_temp.base_of('Scored two'))::numeric, 3), 0.500,
  'a strike (content removed on a report) lowers the creator''s sparks by 0.5');

-- Who reads and writes it ------------------------------------------------------------------------

select tests.clear_authentication();
select throws_ok($$ select count(*) from public.spark_scores $$, '42501', null, 'a visitor cannot read it');
select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.spark_scores), 0, 'a learner reads none');
select tests.authenticate_as('learner_b');
select is((select count(*)::int from public.spark_scores), 0, 'another learner reads none');
select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.spark_scores), 0, 'a creator reads none, not even their own sparks');
select throws_ok(
  format($$ update public.spark_scores set base = 100 where video_id = %L $$, tests.video_id('Scored one')),
  '42501', null, 'a creator cannot raise their own spark');
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.spark_scores), 2, 'an admin reads every row');
select throws_ok(
  format($$ delete from public.spark_scores where video_id = %L $$, tests.video_id('Scored one')),
  '42501', null, 'an admin cannot write it either');
select tests.authenticate_as('learner_a');
select throws_ok(
  format($$ insert into public.spark_scores (video_id, creator_id, category_id, created_at, base) values (%L, %L, 'other', now(), 9) $$,
         tests.video_id('Scored one'), tests.get_supabase_uid('creator_a')),
  '42501', null, 'a learner cannot write it');
select throws_ok($$ select public.rescore_sparks(null) $$, '42501', null, 'nor call rescore_sparks');
select tests.authenticate_as_service_role();
select throws_ok(
  format($$ update public.spark_scores set base = 100 where video_id = %L $$, tests.video_id('Scored one')),
  '42501', null, 'the service role does not write it directly');
select lives_ok($$ select public.rescore_sparks(null) $$, 'the service role rescores (after a bulk load with triggers off)');

select * from finish();
rollback;
