-- 440 · Cheaper position writes (ADR 0056).
-- Proves: save_watch_position() writes nothing (the row keeps its version) for a repeat
-- within 1 s of the position saved in the last minute, and answers the saved row; it
-- writes a move of 1 s or more, finishing (95 %) however little it moved, and the same
-- place on a later visit (the row older than a minute); the skip changes nobody's
-- rights: a visitor and someone else's private video are still refused, and another
-- learner's repeat writes their own row, not the first learner's.
begin;
select plan(10);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);

create temporary table seen (label text primary key, version tid);
grant all on seen to public;

select tests.authenticate_as('learner_a');
select public.save_watch_position(tests.video_id('A public'), 100);
insert into seen select 'first', ctid from public.watch_progress;

select is((public.save_watch_position(tests.video_id('A public'), 100.6)).position_seconds, 100.000::numeric(10, 3),
  'a repeat within 1 s answers the saved position');
select is((select ctid from public.watch_progress), (select version from seen where label = 'first'),
  'and writes nothing (the row keeps its version)');

select is((public.save_watch_position(tests.video_id('A public'), 101)).position_seconds, 101.000::numeric(10, 3),
  'a move of 1 s is saved');
select isnt((select ctid from public.watch_progress), (select version from seen where label = 'first'),
  'as a new version of the row');

select is((public.save_watch_position(tests.video_id('A public'), 284.5)).finished, false, 'under 95 % is not finished');
select is((public.save_watch_position(tests.video_id('A public'), 285)).finished, true,
  'reaching 95 % is saved however little the position moved');

select tests.authenticate_as_superuser();
update public.watch_progress set updated_at = now() - interval '2 minutes';
select tests.authenticate_as('learner_a');
select cmp_ok((public.save_watch_position(tests.video_id('A public'), 285)).updated_at, '>', now() - interval '1 minute',
  'the same place on a later visit is saved again (History''s order)');

select tests.authenticate_as('learner_b');
select is((public.save_watch_position(tests.video_id('A public'), 285.2)).position_seconds, 285.200::numeric(10, 3),
  'another learner''s repeat of the same place writes their own row');
select throws_ok($$ select public.save_watch_position(tests.video_id('A private'), 10) $$, '42501', null,
  'someone else''s private video is still refused');

select tests.clear_authentication();
select throws_ok($$ select public.save_watch_position(tests.video_id('A public'), 285) $$, '42501', null,
  'a visitor still cannot save');

select * from finish();
rollback;
