-- 170 · The public card of a profile, private fields, creator search, category requests, my reports.
-- Proves: anyone reads a profile's public card (username, role, verified, bio, picture,
-- dates) but no API role reads its private fields (field of interest, concentration,
-- interests, portfolio) from the table; public.profile_private() answers the user for
-- their own row and admins for any, nobody else; the creator search and count find
-- creators by name and bio (never learners), and a visitor's search can use the
-- name-and-bio index under row-level security; a creator may request new categories
-- only as pending (not approve them), a learner may not request any; a reporter reads
-- their own reports with their status, nobody else's.
begin;
select plan(36);

select tests.create_cast();
update public.profiles
   set bio = 'I explain quantum optics with lasers',
       field_of_interest = 'Physics', concentration = 'Data Science', interests = array['optics'],
       portfolio_path = id || '/portfolio.pdf', portfolio_type = 'document'
 where id = tests.get_supabase_uid('creator_a');
update public.profiles set bio = 'Cells and the stories they tell', field_of_interest = 'Biology'
 where id = tests.get_supabase_uid('creator_b');
update public.profiles set bio = 'Learning optics for fun', field_of_interest = 'Physics'
 where id = tests.get_supabase_uid('learner_a');

-- The public card ----------------------------------------------------------------------

select tests.clear_authentication();
select is(
  (select bio from public.profiles where id = tests.get_supabase_uid('creator_a')),
  'I explain quantum optics with lasers',
  'a visitor reads a creator''s bio (public card)'
);
select lives_ok(
  $$ select id, username, role, bio, avatar_path, is_verified, created_at, updated_at from public.profiles $$,
  'a visitor reads every public-card column'
);
select throws_ok($$ select field_of_interest from public.profiles $$, '42501', null, 'a visitor cannot read field_of_interest');
select throws_ok($$ select concentration from public.profiles $$, '42501', null, 'a visitor cannot read concentration');
select throws_ok($$ select interests from public.profiles $$, '42501', null, 'a visitor cannot read interests');
select throws_ok($$ select portfolio_path from public.profiles $$, '42501', null, 'a visitor cannot read portfolio_path');
select throws_ok($$ select portfolio_type from public.profiles $$, '42501', null, 'a visitor cannot read portfolio_type');
select throws_ok($$ select * from public.profiles $$, '42501', null, 'a visitor cannot select * (it would include private columns)');
select throws_ok(
  $$ select * from public.profile_private(array[tests.get_supabase_uid('creator_a')]) $$,
  '42501', null,
  'a visitor cannot call profile_private()'
);

select tests.authenticate_as('learner_b');
select throws_ok($$ select portfolio_path from public.profiles $$, '42501', null, 'a learner cannot read portfolio paths');
select throws_ok($$ select field_of_interest from public.profiles $$, '42501', null, 'a learner cannot read fields of interest');
select is(
  (select count(*)::int from public.profile_private(array[tests.get_supabase_uid('creator_a'), tests.get_supabase_uid('learner_a')])),
  0,
  'a learner reads nobody else''s private fields through profile_private()'
);
select lives_ok(
  $$ update public.profiles set bio = 'Still learning' where id = tests.get_supabase_uid('learner_b') $$,
  'a learner still updates their own profile'
);

select tests.authenticate_as('learner_a');
select results_eq(
  $$ select field_of_interest from public.profile_private(array[tests.get_supabase_uid('learner_a'), tests.get_supabase_uid('creator_a')]) $$,
  $$ values ('Physics'::text) $$,
  'a learner reads their own private fields, and only theirs'
);

select tests.authenticate_as('creator_b');
select is(
  (select count(*)::int from public.profile_private(array[tests.get_supabase_uid('creator_a')])),
  0,
  'a creator cannot read another creator''s portfolio'
);

select tests.authenticate_as('creator_unverified');
select is(
  (select count(*)::int from public.profile_private(array[tests.get_supabase_uid('creator_a')])),
  0,
  'an unverified creator cannot read another creator''s private fields'
);

select tests.authenticate_as('creator_a');
select results_eq(
  $$ select concentration, portfolio_type from public.profile_private(array[tests.get_supabase_uid('creator_a')]) $$,
  $$ values ('Data Science'::text, 'document'::text) $$,
  'a creator reads their own concentration and portfolio'
);

select tests.authenticate_as('admin_a');
select is(
  (select count(*)::int from public.profile_private(array[tests.get_supabase_uid('creator_a'), tests.get_supabase_uid('learner_a'), tests.get_supabase_uid('creator_b')])),
  3,
  'an admin reads anyone''s private fields'
);
select throws_ok($$ select portfolio_path from public.profiles $$, '42501', null, 'even an admin reads private columns only through profile_private()');

-- Creator search ------------------------------------------------------------------------

select tests.clear_authentication();
select is(
  array(select username from public.search_creators('optics') order by 1),
  array['creator_a'],
  'a visitor finds a creator by a word of their bio (never the learner whose bio matches too)'
);
select is(
  array(select username from public.search_creators('creator_b')),
  array['creator_b'],
  'a visitor finds a creator by name'
);
select is(
  array(select username from public.search_creators('OPT LAS') order by 1),
  array['creator_a'],
  'every word counts, as a prefix, whatever its case'
);
select is(public.count_creators(null), 2::bigint, 'a visitor''s count badge counts the verified creators (two in the cast; the pending one is for admins, see 310)');
select is(public.count_creators('optics'), 1::bigint, 'and the creators matching a search');
select is(
  (select count(*)::int from public.search_creators(''' & !:* <script>')),
  (select count(*)::int from public.search_creators('script')),
  'tsquery syntax in a search is taken as words'
);
select is((select count(*)::int from public.search_creators('!!!')), 0, 'a search with no word finds nothing');
select is(
  array(select username from public.search_creators(null, 2)),
  array['creator_a', 'creator_b'],
  'without a search, creators come a page at a time (the order is proven in 310)'
);

-- The index is usable for a visitor's search (no policy qual has to run first). The plan
-- is read by a security-invoker helper (rolled back with the file), so as the visitor.
select tests.authenticate_as_superuser();
create function tests.plan_of(query text) returns setof text
  language plpgsql
  set search_path = ''
as $$
declare
  line text;
begin
  for line in execute 'explain ' || query loop
    return next line;
  end loop;
end
$$;
grant execute on function tests.plan_of(text) to anon;
-- Only the search index or a (disabled) sequential scan remain to choose from.
drop index public.profiles_creators_idx;
select tests.clear_authentication();
set local enable_seqscan = off;
select matches(
  (select string_agg(line, ' ') from (
    select * from tests.plan_of($$ select id from public.profiles p where p.role = 'creator'
      and to_tsvector('simple'::regconfig, translate(p.username, '._-', '   ') || ' ' || p.bio) @@ to_tsquery('simple', 'optics:*') $$)
  ) as plan (line)),
  'profiles_creator_search_idx',
  'a visitor''s creator search uses the name-and-bio index under row-level security'
);
reset enable_seqscan;

-- Category requests -----------------------------------------------------------------------

select tests.authenticate_as('creator_b');
select lives_ok(
  $$ insert into public.creator_categories (creator_id, category_id) values (tests.get_supabase_uid('creator_b'), 'media') $$,
  'a verified creator requests a new category (pending by default)'
);
select throws_ok(
  $$ insert into public.creator_categories (creator_id, category_id, status) values (tests.get_supabase_uid('creator_b'), 'arts-creativity', 'approved') $$,
  '42501', null,
  'a creator cannot give themselves an approved category'
);
with u as (update public.creator_categories set status = 'approved'
           where creator_id = tests.get_supabase_uid('creator_b') and category_id = 'media' returning 1)
select is(count(*)::int, 0, 'a creator cannot approve their own request') from u;
select is(public.can_use_category('media'), false, 'a pending category is not offered on upload');

select tests.authenticate_as('learner_a');
select throws_ok(
  $$ insert into public.creator_categories (creator_id, category_id) values (tests.get_supabase_uid('learner_a'), 'media') $$,
  '42501', null,
  'a learner cannot request categories'
);

-- My reports ------------------------------------------------------------------------------

select tests.authenticate_as_superuser();
select tests.create_video('creator_a', 'Reported', true);
insert into public.reports (reporter_id, content_type, content_id, reason, details, status)
values (tests.get_supabase_uid('learner_a'), 'video', tests.video_id('Reported'), 'spam', 'A: spam', 'dismissed'),
       (tests.get_supabase_uid('learner_b'), 'video', tests.video_id('Reported'), 'other', 'B: other', 'pending');

select tests.authenticate_as('learner_a');
select results_eq(
  $$ select details, status from public.reports $$,
  $$ values ('A: spam'::text, 'dismissed'::text) $$,
  'a reporter reads their own reports with their outcome, and nobody else''s'
);

select tests.authenticate_as('creator_a');
select is((select count(*)::int from public.reports), 0, 'the reported creator does not see who reported them');

select tests.clear_authentication();
select is((select count(*)::int from public.reports), 0, 'a visitor sees no reports');

select * from finish();
rollback;
