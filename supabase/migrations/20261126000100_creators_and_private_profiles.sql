-- ADR 0013: creators, follows and the full profile (docs/decisions/0013-public-card-and-creator-search.md).

-- 1. What a stranger may read of a profile is its public card --------------------------
--
-- Username, role, verification, bio, picture and dates are public (creator pages,
-- names on cards). Field of interest, concentration, interests and the portfolio are
-- the user's own business and their admins': API roles lose SELECT on those columns
-- (row policies cannot hide a column) and read them through public.profile_private(),
-- which answers for oneself and for admins only. A later migration adding a column to
-- profiles must grant it too if it is public.
revoke select on public.profiles from anon, authenticated;
grant select (id, username, role, bio, avatar_path, is_verified, created_at, updated_at)
  on public.profiles to anon, authenticated;

create function public.profile_private(user_ids uuid[])
returns table (
  id uuid,
  field_of_interest text,
  concentration text,
  interests text[],
  portfolio_path text,
  portfolio_type text
)
  language sql stable security definer
  set search_path = ''
as $$
  select p.id, p.field_of_interest, p.concentration, p.interests, p.portfolio_path, p.portfolio_type
    from public.profiles p
   where p.id = any (user_ids)
     and (p.id = (select auth.uid()) or (select public.is_admin()))
$$;

revoke execute on function public.profile_private(uuid[]) from public, anon;
grant execute on function public.profile_private(uuid[]) to authenticated, service_role;

comment on function public.profile_private(uuid[]) is
  'The private fields (field of interest, concentration, interests, portfolio) of the given users: the caller''s own row, or any row for an admin; nothing for anyone else.';

-- 2. Discover Creators: listing and searching creators ----------------------------------
--
-- Creators are listed newest first, or, with a search, by relevance of their name and
-- bio. The search vector is an expression index on the creators' rows ('simple'
-- parser; '.', '_' and '-' in usernames split words). Under row-level security the
-- planner may use a GIN index for `@@` (not leakproof) only when no policy qual has to
-- run first: the profiles select policy is `using (true)` (every public card is
-- public), so it can, and these functions stay SECURITY INVOKER — they read only the
-- public-card columns, which is all API roles may select. pgTAP (170-creators.sql)
-- checks that a visitor's search uses the index; were the policy ever to filter rows,
-- that check fails and the search needs a definer function with the same rule.
create index profiles_creators_idx on public.profiles (created_at desc, id desc)
  where role = 'creator';

create index profiles_creator_search_idx on public.profiles
  using gin (to_tsvector('simple'::regconfig, translate(username, '._-', '   ') || ' ' || bio))
  where role = 'creator';

-- `quick fox` -> 'quick':* & 'fox':*, built from Postgres's own lexemes, so no text can
-- inject tsquery syntax. Null when the text has no searchable word.
create function public.creator_search_query(search text) returns tsquery
  language sql immutable
  set search_path = ''
as $$
  select to_tsquery('simple'::regconfig, string_agg(
           '''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || ''':*', ' & '))
    from unnest(tsvector_to_array(to_tsvector('simple'::regconfig,
           translate(left(coalesce(search, ''), 200), '._-', '   ')))) as lexeme
$$;

comment on function public.creator_search_query(text) is
  'The prefix tsquery of a creator search (every word, as a prefix); null when nothing searchable.';

create function public.search_creators(
  search text default null,
  page_size integer default 12,
  after_rank real default null,
  after_created timestamptz default null,
  after_id uuid default null
) returns table (
  id uuid,
  username text,
  role text,
  is_verified boolean,
  bio text,
  avatar_path text,
  created_at timestamptz,
  rank real
)
  language plpgsql stable
  set search_path = ''
as $$
declare
  q tsquery := public.creator_search_query(search);
  size integer := least(greatest(coalesce(page_size, 12), 1), 50);
begin
  if nullif(btrim(coalesce(search, '')), '') is not null and q is null then
    return;  -- only punctuation or markup: nothing matches
  end if;
  if q is null then
    return query
      select p.id, p.username, p.role, p.is_verified, p.bio, p.avatar_path, p.created_at, 0::real
        from public.profiles p
       where p.role = 'creator'
         and (after_created is null
              or (p.created_at, p.id) < (after_created, coalesce(after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)))
       order by p.created_at desc, p.id desc
       limit size;
  else
    return query
      select m.id, m.username, m.role, m.is_verified, m.bio, m.avatar_path, m.created_at, m.rank
        from (
          select p.id, p.username, p.role, p.is_verified, p.bio, p.avatar_path, p.created_at,
                 ts_rank(to_tsvector('simple'::regconfig, translate(p.username, '._-', '   ') || ' ' || p.bio), q) as rank
            from public.profiles p
           where p.role = 'creator'
             and to_tsvector('simple'::regconfig, translate(p.username, '._-', '   ') || ' ' || p.bio) @@ q
        ) m
       where after_rank is null
          or (m.rank, m.created_at, m.id) < (after_rank, after_created, coalesce(after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid))
       order by m.rank desc, m.created_at desc, m.id desc
       limit size;
  end if;
end
$$;

grant execute on function public.search_creators(text, integer, real, timestamptz, uuid) to anon, authenticated, service_role;

comment on function public.search_creators(text, integer, real, timestamptz, uuid) is
  'Public creator cards (no private field), newest first or, with a search of name and bio, by relevance; keyset pages. Security invoker: the caller''s grants and policies apply.';

create function public.count_creators(search text default null) returns bigint
  language plpgsql stable
  set search_path = ''
as $$
declare
  q tsquery := public.creator_search_query(search);
begin
  if nullif(btrim(coalesce(search, '')), '') is not null and q is null then
    return 0;
  end if;
  return (
    select count(*)
      from public.profiles p
     where p.role = 'creator'
       and (q is null
            or to_tsvector('simple'::regconfig, translate(p.username, '._-', '   ') || ' ' || p.bio) @@ q)
  );
end
$$;

grant execute on function public.count_creators(text) to anon, authenticated, service_role;

comment on function public.count_creators(text) is
  'How many creators there are, or match a search of name and bio (Discover Creators'' count badge).';

-- 3. Follows: the people a user follows, newest first ------------------------------------
create index follows_follower_id_created_idx on public.follows (follower_id, created_at desc);
