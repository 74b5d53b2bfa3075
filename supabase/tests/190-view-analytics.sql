-- 190 · Honest view counting and the dashboard's roll-ups (ADR 0015).
-- Proves: a view counts from progress reports once 10 s (half a clip under 20 s) have
-- been credited, never more in total than the wall-clock time since the session began,
-- once per viewer, video and hour; reports for videos the caller cannot see, and for
-- someone else's session, are refused; the roll-ups (creator_activity, video_activity,
-- video_stats) and videos.view_count equal the rows they summarise, also after likes,
-- unlikes, comments and a deleted video; a creator reads only their own analytics,
-- admins read all, nobody writes them directly.
begin;
select plan(47);

select tests.create_cast();
select tests.create_video('creator_a', 'A public', true);
select tests.create_video('creator_a', 'A private', false);
select tests.create_video('creator_a', 'A short', true, 'other', 'spark');
select tests.create_video('creator_b', 'B public', true);
update public.videos set duration_seconds = 8 where title = 'A short';

-- Wall-clock time passes in a transaction only if we say so: ages a session.
create function pg_temp.age_session(session uuid, seconds integer) returns void
  language sql security definer
as $$ update public.video_watch_sessions set started_at = started_at - make_interval(secs => seconds) where id = session $$;

-- Counting --------------------------------------------------------------------------

select tests.authenticate_as('learner_a');
select is(public.report_watch('00000000-0000-4000-8000-000000000001', tests.video_id('A public'), 0), false,
  'the first report (playback started) does not count');
select is(public.report_watch('00000000-0000-4000-8000-000000000001', tests.video_id('A public'), 9), false,
  'a report claiming 9 s right after the start is capped by the wall clock and does not count');
select is(public.report_watch('00000000-0000-4000-8000-000000000001', tests.video_id('A public'), 9), false,
  'repeating the claim earns nothing more (at most 2 s of slack in total)');

select tests.authenticate_as_superuser();
select is((select watched_seconds from public.video_watch_sessions where id = '00000000-0000-4000-8000-000000000001'),
  2.000, 'the session was credited 2 s, the slack');
select pg_temp.age_session('00000000-0000-4000-8000-000000000001', 60);

select tests.authenticate_as('learner_a');
select is(public.report_watch('00000000-0000-4000-8000-000000000001', tests.video_id('A public'), 7), false,
  '9 s watched do not count');
select is(public.report_watch('00000000-0000-4000-8000-000000000001', tests.video_id('A public'), 1, 3), true,
  'the tenth second counts the view');
select is(public.report_watch('00000000-0000-4000-8000-000000000001', tests.video_id('A public'), 5), false,
  'the same session counts once');
select is(public.report_watch('00000000-0000-4000-8000-000000000002', tests.video_id('A public'), 0), false,
  'a reload starts a new session');
select pg_temp.age_session('00000000-0000-4000-8000-000000000002', 60);
select is(public.report_watch('00000000-0000-4000-8000-000000000002', tests.video_id('A public'), 12), false,
  'a reload within the hour does not count again');
select is(public.record_view(tests.video_id('A public')), false,
  'nor does a page view without JavaScript in the same hour');

select is(public.report_watch('00000000-0000-4000-8000-000000000003', tests.video_id('A short'), 0), false,
  'a short clip: the start does not count');
select pg_temp.age_session('00000000-0000-4000-8000-000000000003', 60);
select is(public.report_watch('00000000-0000-4000-8000-000000000003', tests.video_id('A short'), 3.9), false,
  'under half of an 8 s clip does not count');
select is(public.report_watch('00000000-0000-4000-8000-000000000003', tests.video_id('A short'), 0.1), true,
  'half of an 8 s clip counts');

select throws_ok(
  $$ select public.report_watch('00000000-0000-4000-8000-000000000004', tests.video_id('A private'), 0) $$,
  '42501', null, 'a report for a private video the learner cannot see is refused');
select throws_ok(
  $$ select public.report_watch('00000000-0000-4000-8000-000000000004', gen_random_uuid(), 0) $$,
  '42501', null, 'a report for a video that does not exist is refused the same way');

select tests.authenticate_as('learner_b');
select throws_ok(
  $$ select public.report_watch('00000000-0000-4000-8000-000000000001', tests.video_id('A public'), 5) $$,
  '42501', null, 'a report on someone else''s session is refused');
select is(public.report_watch('00000000-0000-4000-8000-000000000005', tests.video_id('A public'), 0), false,
  'another viewer starts watching');
select pg_temp.age_session('00000000-0000-4000-8000-000000000005', 60);
select is(public.report_watch('00000000-0000-4000-8000-000000000005', tests.video_id('A public'), 10, 1), true,
  'another viewer''s 10 s count');

select tests.authenticate_as('creator_a');
select is(public.report_watch('00000000-0000-4000-8000-000000000006', tests.video_id('A private'), 0), false,
  'a creator may report on their own private video');

select tests.clear_authentication();
select throws_ok(
  $$ select public.report_watch('00000000-0000-4000-8000-000000000007', tests.video_id('B public'), 0, 0, 'visitor-1') $$,
  '42501', null, 'a visitor cannot report directly (any invented key would count)');

select tests.authenticate_as_service_role();
select is(public.report_watch('00000000-0000-4000-8000-000000000007', tests.video_id('B public'), 0, 0, 'visitor-1'), false,
  'the server reports for a visitor under their browser key');
select pg_temp.age_session('00000000-0000-4000-8000-000000000007', 60);
select is(public.report_watch('00000000-0000-4000-8000-000000000007', tests.video_id('B public'), 20, 1023, 'visitor-1'), true,
  'a visitor''s 20 s count once');

-- Counters and roll-ups equal their rows ------------------------------------------------

select tests.authenticate_as('learner_a');
insert into public.video_likes (video_id) values (tests.video_id('A public')), (tests.video_id('B public'));
delete from public.video_likes where video_id = tests.video_id('B public');
insert into public.comments (video_id, body) values (tests.video_id('A public'), 'Nice one');

select tests.authenticate_as_superuser();
select results_eq(
  $$ select v.title, v.view_count::int, (select count(*)::int from public.video_views w where w.video_id = v.id)
     from public.videos v order by v.title $$,
  $$ values ('A private', 0, 0), ('A public', 2, 2), ('A short', 1, 1), ('B public', 1, 1) $$,
  'every view_count equals count(*) of its views');
select results_eq(
  $$ select p.username, coalesce(sum(a.views), 0)::int, coalesce(sum(a.likes), 0)::int, coalesce(sum(a.comments), 0)::int
       from public.profiles p left join public.creator_activity a on a.creator_id = p.id
      where p.id in (tests.get_supabase_uid('creator_a'), tests.get_supabase_uid('creator_b'))
      group by p.username order by p.username $$,
  $$ select p.username,
            (select count(*)::int from public.video_views w join public.videos v on v.id = w.video_id where v.creator_id = p.id),
            (select count(*)::int from public.video_likes l join public.videos v on v.id = l.video_id where v.creator_id = p.id),
            (select count(*)::int from public.comments c join public.videos v on v.id = c.video_id where v.creator_id = p.id)
       from public.profiles p
      where p.id in (tests.get_supabase_uid('creator_a'), tests.get_supabase_uid('creator_b'))
      order by p.username $$,
  'each creator''s roll-up equals the views, likes and comments of their videos');
select results_eq(
  $$ select v.title, sum(a.views)::int, sum(a.likes)::int, sum(a.comments)::int
       from public.video_activity a join public.videos v on v.id = a.video_id group by v.title order by v.title $$,
  $$ values ('A public', 2, 1, 1), ('A short', 1, 0, 0), ('B public', 1, 0, 0) $$,
  'each video''s roll-up equals its rows (the unlike was taken back)');
select results_eq(
  $$ select v.title, s.plays, s.watch_seconds = (select sum(w.watched_seconds) from public.video_watch_sessions w where w.video_id = v.id)
       from public.video_stats s join public.videos v on v.id = s.video_id order by v.title $$,
  $$ values ('A private', 1, true), ('A public', 3, true), ('A short', 1, true), ('B public', 1, true) $$,
  'video_stats: one play per session, watch time equals the sessions''');
select is((select tenths from public.video_stats where video_id = tests.video_id('A public')),
  array[2, 1, 0, 0, 0, 0, 0, 0, 0, 0], 'the retention counters count each session''s tenths once');
select is(
  (select sum(watch_seconds) from public.creator_activity where creator_id = tests.get_supabase_uid('creator_a')),
  (select sum(w.watched_seconds) from public.video_watch_sessions w join public.videos v on v.id = w.video_id
    where v.creator_id = tests.get_supabase_uid('creator_a')),
  'the creator''s watch time equals their sessions''');

-- Reads ---------------------------------------------------------------------------------

select tests.clear_authentication();
select is((select count(*)::int from public.creator_activity) + (select count(*)::int from public.video_activity)
  + (select count(*)::int from public.video_stats) + (select count(*)::int from public.video_watch_sessions), 0,
  'a visitor reads no analytics');

select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.creator_activity) + (select count(*)::int from public.video_activity)
  + (select count(*)::int from public.video_stats) + (select count(*)::int from public.video_watch_sessions), 0,
  'a learner reads no analytics, not even of their own watching');

select tests.authenticate_as('creator_unverified');
select is((select count(*)::int from public.creator_activity) + (select count(*)::int from public.video_stats), 0,
  'an unverified creator reads no analytics');

select tests.authenticate_as('creator_a');
select is(array(select distinct creator_id from public.creator_activity), array[tests.get_supabase_uid('creator_a')],
  'a creator reads only their own activity');
select is(array(select distinct v.title from public.video_activity a join public.videos v on v.id = a.video_id order by 1),
  array['A public', 'A short'], 'a creator reads the activity of their own videos only');
select is((select count(*)::int from public.video_stats), 3, 'a creator reads the stats of their own three videos');
select is((select count(*)::int from public.video_watch_sessions), 5, 'a creator reads the sessions on their videos');

select tests.authenticate_as('creator_b');
select is(array(select distinct v.title from public.video_stats s join public.videos v on v.id = s.video_id),
  array['B public'], 'another creator reads only theirs');

select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.creator_activity where views > 0), 2, 'an admin reads every creator''s activity');
select is((select count(*)::int from public.video_watch_sessions), 6, 'an admin reads every session');

-- Writes ----------------------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select throws_ok(
  $$ insert into public.creator_activity (creator_id, bucket, views) values (auth.uid(), now(), 1000) $$,
  '42501', null, 'a creator cannot insert activity');
with u as (update public.video_stats set plays = plays + 100 returning 1)
select is(count(*)::int, 0, 'a creator cannot edit their video''s stats') from u;
with u as (update public.video_watch_sessions set watched_seconds = 1000 returning 1)
select is(count(*)::int, 0, 'a creator cannot edit watch sessions') from u;

select tests.authenticate_as('admin_a');
with d as (delete from public.creator_activity returning 1)
select is(count(*)::int, 0, 'an admin cannot delete activity') from d;

-- A deleted video leaves its creator's roll-up equal to the remaining rows ----------------

select tests.authenticate_as('creator_a');
delete from public.videos where id = tests.video_id('A public');
select tests.authenticate_as_superuser();
select is(
  (select array[sum(views), sum(likes), sum(comments)]::int[] from public.creator_activity where creator_id = tests.get_supabase_uid('creator_a')),
  array[1, 0, 0], 'after a delete the creator''s roll-up holds only the short clip''s view');

-- Time zone -------------------------------------------------------------------------------

select tests.authenticate_as('creator_a');
select throws_ok(
  $$ update public.profiles set time_zone = 'Mars/Olympus_Mons' where id = auth.uid() $$,
  '22023', null, 'an unknown time zone is refused');
update public.profiles set time_zone = 'Asia/Kathmandu' where id = auth.uid();
select is(public.profile_time_zone(auth.uid()), 'Asia/Kathmandu', 'a creator sets their time zone');
select tests.authenticate_as('learner_a');
select is(public.profile_time_zone(tests.get_supabase_uid('creator_a')), null, 'another user cannot read it');
select throws_ok($$ select time_zone from public.profiles $$, '42501', null, 'nor select the column');

select * from finish();
rollback;
