-- 160 · Verified creators' new category requests, and nobody changing their own role.
-- Proves: only an admin approves or rejects a verified creator's pending category
-- request (public.review_category_request, or an update of creator_categories); a
-- visitor, a learner, an unverified creator and verified creators (the requester
-- included) cannot; each decision leaves one audit row naming the admin, while the
-- categories an application approval approves with it are not recorded twice; an
-- admin cannot change their own role (Postgres refuses, not only the app), but
-- still changes another user's.
begin;
select plan(27);

select tests.create_cast();
delete from public.admin_audit;
-- creator_a (verified) asked for media in the cast; creator_b now asks for two more.
insert into public.creator_categories (creator_id, category_id)
values (tests.get_supabase_uid('creator_b'), 'health-wellness'),
       (tests.get_supabase_uid('creator_b'), 'arts-creativity');

create function tests.request_status(who text, category text) returns text
  language sql stable security definer
  set search_path = ''
as $$
  select status from public.creator_categories
   where creator_id = tests.get_supabase_uid(who) and category_id = category
$$;
grant execute on function tests.request_status(text, text) to anon, authenticated;

select tests.clear_authentication();
select throws_ok(
  format($$ select public.review_category_request(%L, 'media', true) $$, tests.get_supabase_uid('creator_a')),
  '42501', null, 'a visitor cannot approve a category request'
);

select tests.authenticate_as_superuser();
create function tests.refused_category(who text) returns setof text
  language plpgsql
as $$
declare
  changed integer;
begin
  perform tests.authenticate_as(who);
  return next throws_ok(
    format($q$ select public.review_category_request(%L, 'media', true) $q$, tests.get_supabase_uid('creator_a')),
    '42501', null, who || ' cannot approve a category request');
  return next throws_ok(
    format($q$ select public.review_category_request(%L, 'health-wellness', false) $q$, tests.get_supabase_uid('creator_b')),
    '42501', null, who || ' cannot reject a category request');
  update public.creator_categories set status = 'approved' where status = 'pending';
  get diagnostics changed = row_count;
  return next is(changed, 0, who || ' cannot approve a pending category by an update');
end
$$;
grant execute on function tests.refused_category(text) to authenticated;

select * from tests.refused_category('learner_a');
select * from tests.refused_category('creator_unverified');
select * from tests.refused_category('creator_a');
select * from tests.refused_category('creator_b');

select tests.authenticate_as_superuser();
select is(tests.request_status('creator_a', 'media'), 'pending', 'the refused requests are still pending');
select is((select count(*)::int from public.admin_audit), 0, 'and nothing was recorded');

-- An admin ------------------------------------------------------------------------------
select tests.authenticate_as('admin_a');
select is(
  (select status from public.review_category_request(tests.get_supabase_uid('creator_a'), 'media', true)),
  'approved', 'an admin approves a category request'
);
select is(
  (select status from public.review_category_request(tests.get_supabase_uid('creator_b'), 'health-wellness', false)),
  'rejected', 'an admin rejects a category request'
);
select throws_ok(
  format($$ select public.review_category_request(%L, 'media', false) $$, tests.get_supabase_uid('creator_a')),
  'P0002', null, 'a request already decided cannot be decided again'
);
select lives_ok(
  format($$ update public.creator_categories set status = 'approved' where creator_id = %L and category_id = 'arts-creativity' $$,
    tests.get_supabase_uid('creator_b')),
  'an admin may also decide by an update (the policy)'
);
select lives_ok(
  format($$ select public.review_creator_application(
    (select id from public.creator_applications where creator_id = %L and status = 'pending'), true) $$,
    tests.get_supabase_uid('creator_unverified')),
  'an admin approves an application with its categories'
);
select is(tests.request_status('creator_unverified', 'natural-sciences-physics'), 'approved', 'its categories are approved');
select is(
  array(select action || ' ' || coalesce(target_label, '') from public.admin_audit order by created_at),
  array['category.approved creator_a: Media', 'category.rejected creator_b: Health & Wellness',
        'category.approved creator_b: Arts & Creativity', 'application.approved creator_unverified'],
  'each decision left one audit row (the categories approved with the application are not recorded again)'
);
select is(
  (select count(*)::int from public.admin_audit where actor_id = tests.get_supabase_uid('admin_a')),
  4, 'each names the admin'
);

-- Nobody changes their own role -----------------------------------------------------------
select throws_ok(
  format($$ update public.profiles set role = 'user' where id = %L $$, tests.get_supabase_uid('admin_a')),
  '42501', null, 'an admin cannot change their own role'
);
select lives_ok(
  format($$ update public.profiles set bio = 'Still an admin' where id = %L $$, tests.get_supabase_uid('admin_a')),
  'an admin still edits the rest of their own profile'
);
select lives_ok(
  format($$ update public.profiles set role = 'user' where id = %L $$, tests.get_supabase_uid('admin_b')),
  'an admin changes another admin''s role'
);
select tests.authenticate_as_superuser();
select is(
  (select role from public.profiles where id = tests.get_supabase_uid('admin_a')),
  'admin', 'the admin is still an admin'
);

select * from finish();
rollback;
