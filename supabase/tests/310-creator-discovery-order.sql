-- 310 · Discover Creators: the order, and pending creators for admins only.
-- Proves: search_creators() lists verified creators with a public ready video first, then
-- by followers (most first), then by latest public upload (newest first, none last), then
-- by username; a search puts the best match first and keeps that order among equals; a
-- visitor, a learner and a creator (verified or still pending) never see a pending
-- creator, an admin does; count_creators() counts exactly what the caller is listed;
-- keyset pages of any size walk the same order without a gap or a repeat.
begin;
select plan(20);

select tests.create_cast();
-- Three more verified creators: one followed without a public video, one with only a
-- private video, one with a recent public video.
select tests.create_supabase_user('creator_c', metadata => '{"role":"creator","creator_categories":["natural-sciences-physics"]}');
select tests.create_supabase_user('creator_d', metadata => '{"role":"creator","creator_categories":["natural-sciences-physics"]}');
select tests.create_supabase_user('creator_e', metadata => '{"role":"creator","creator_categories":["natural-sciences-physics"]}');
select tests.make_verified_creator('creator_c', array['natural-sciences-physics']);
select tests.make_verified_creator('creator_d', array['natural-sciences-physics']);
select tests.make_verified_creator('creator_e', array['natural-sciences-physics']);
update public.profiles set bio = 'Everyone here teaches science'
 where username in ('creator_a', 'creator_b', 'creator_c', 'creator_d', 'creator_e', 'creator_unverified');

select tests.create_video('creator_a', 'A public lesson');
select tests.create_video('creator_b', 'An older public lesson');
select tests.create_video('creator_e', 'A newer public lesson');
select tests.create_video('creator_d', 'A private lesson', false);
update public.videos set created_at = now() - interval '2 days' where id = tests.video_id('An older public lesson');
update public.videos set created_at = now() - interval '1 hour' where id = tests.video_id('A newer public lesson');
-- The pending creator is the most followed and the newest: neither lifts them above a
-- verified creator with videos, and nobody but an admin sees them.
update public.profiles set created_at = now() + interval '1 day' where id = tests.get_supabase_uid('creator_unverified');
insert into public.follows (follower_id, creator_id) values
  (tests.get_supabase_uid('learner_a'), tests.get_supabase_uid('creator_a')),
  (tests.get_supabase_uid('learner_b'), tests.get_supabase_uid('creator_a')),
  (tests.get_supabase_uid('learner_a'), tests.get_supabase_uid('creator_c')),
  (tests.get_supabase_uid('learner_a'), tests.get_supabase_uid('creator_unverified')),
  (tests.get_supabase_uid('learner_b'), tests.get_supabase_uid('creator_unverified')),
  (tests.get_supabase_uid('creator_b'), tests.get_supabase_uid('creator_unverified'));

-- Every page of `size`, one after another through the cursor, as the caller (security invoker).
create function tests.walk_creators(search text, size integer) returns setof text
  language plpgsql
  set search_path = ''
as $$
declare
  last record;
  got integer;
  rank real;
  featured boolean;
  followers integer;
  latest timestamptz;
  username text;
  id uuid;
begin
  loop
    got := 0;
    for last in
      select * from public.search_creators(search, size, rank, featured, followers, latest, username, id)
    loop
      got := got + 1;
      rank := last.rank; featured := last.featured; followers := last.followers;
      latest := last.latest_upload; username := last.username; id := last.id;
      return next last.username;
    end loop;
    exit when got < size;
  end loop;
end
$$;
grant execute on function tests.walk_creators(text, integer) to anon, authenticated;

-- Visitors, learners and creators ------------------------------------------------------

select tests.clear_authentication();
select is(
  array(select username from public.search_creators(null, 50)),
  array['creator_a', 'creator_e', 'creator_b', 'creator_c', 'creator_d'],
  'a visitor sees verified creators with public videos first (most followed, then latest upload), then the rest by followers; no pending creator'
);
select is(public.count_creators(null), 5::bigint, 'a visitor''s count badge counts the five creators listed');
select is(
  array(select tests.walk_creators(null, 2)),
  array['creator_a', 'creator_e', 'creator_b', 'creator_c', 'creator_d'],
  'a visitor''s pages of two walk the same order'
);
select is(
  array(select username from public.search_creators('teaches', 50)),
  array['creator_a', 'creator_e', 'creator_b', 'creator_c', 'creator_d'],
  'among equally good matches, a search keeps the same order'
);
select is(public.count_creators('teaches'), 5::bigint, 'and counts what it lists');
select is(
  array(select username from public.search_creators('creator_unverified', 50)),
  '{}'::text[],
  'a visitor does not find a pending creator by name'
);

select tests.authenticate_as('learner_a');
select is(
  array(select username from public.search_creators(null, 50)),
  array['creator_a', 'creator_e', 'creator_b', 'creator_c', 'creator_d'],
  'a learner sees the same order, without the pending creator they follow'
);
select is(public.count_creators(null), 5::bigint, 'a learner''s count badge agrees');
select is(
  array(select tests.walk_creators('teaches', 1)),
  array['creator_a', 'creator_e', 'creator_b', 'creator_c', 'creator_d'],
  'a learner''s search, one per page, walks the same order'
);

select tests.authenticate_as('creator_b');
select is(
  array(select username from public.search_creators(null, 50)),
  array['creator_a', 'creator_e', 'creator_b', 'creator_c', 'creator_d'],
  'a verified creator sees no pending creator'
);
select is(public.count_creators('teaches'), 5::bigint, 'nor counts one');

select tests.authenticate_as('creator_unverified');
select is(
  (select count(*)::int from public.search_creators(null, 50) where username = 'creator_unverified'),
  0,
  'a pending creator is not listed, even to themselves'
);
select is(public.count_creators(null), 5::bigint, 'nor counted');

-- Admins --------------------------------------------------------------------------------

select tests.authenticate_as('admin_a');
select is(
  array(select username from public.search_creators(null, 50)),
  array['creator_a', 'creator_e', 'creator_b', 'creator_unverified', 'creator_c', 'creator_d'],
  'an admin also sees the pending creator, after every creator with public videos (then by followers)'
);
select is(public.count_creators(null), 6::bigint, 'an admin''s count badge counts the pending creator too');
select is(
  array(select tests.walk_creators(null, 4)),
  array['creator_a', 'creator_e', 'creator_b', 'creator_unverified', 'creator_c', 'creator_d'],
  'an admin''s pages of four walk the same order'
);
select is(
  array(select username from public.search_creators('creator_unverified', 50)),
  array['creator_unverified'],
  'an admin finds a pending creator by name'
);
select is(public.count_creators('creator_unverified'), 1::bigint, 'and counts them');

-- Ties and what nobody may do -------------------------------------------------------------

select tests.authenticate_as_superuser();
delete from public.follows;
delete from public.videos;
select tests.clear_authentication();
select is(
  array(select username from public.search_creators(null, 50)),
  array['creator_a', 'creator_b', 'creator_c', 'creator_d', 'creator_e'],
  'with no videos and no followers, creators come by username'
);
select throws_ok(
  $$ select public.is_admin() $$,
  '42501', null,
  'a visitor still may not call is_admin() itself'
);

select * from finish();
rollback;
