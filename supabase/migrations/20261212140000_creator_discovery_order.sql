-- Discover Creators: what helps a learner comes first, and pending creators only for admins.
--
-- `search_creators()` listed every creator newest first, so the newest sign-up — a creator
-- whose application is still pending, with no video — led the page. The list now orders
-- (see docs/decisions/0040-creator-discovery-order.md):
--   1. with a search, relevance (ts_rank of name and bio) first;
--   2. verified creators with at least one public ready video ("featured") first;
--   3. more followers first;
--   4. the latest public ready upload first (none last);
--   5. then by username, then id (a total order, so keyset pages never skip or repeat).
-- Unverified (pending) creators are listed and counted for admins only; everyone else sees
-- verified creators. Both functions stay SECURITY INVOKER: the rule is the caller's
-- `public.is_admin()`, and videos and follows are read under the caller's policies.
-- The signature changes (the keyset now carries the new sort key), so the old function goes.

drop function public.search_creators(text, integer, real, timestamptz, uuid);

-- Whether the caller is an admin. `public.is_admin()` is not granted to visitors, so it is
-- asked only when someone is signed in.
create function public.creator_listing_admin() returns boolean
  language plpgsql stable
  set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    return false;
  end if;
  return public.is_admin();
end
$$;

revoke execute on function public.creator_listing_admin() from public;
grant execute on function public.creator_listing_admin() to anon, authenticated, service_role;

comment on function public.creator_listing_admin() is
  'True when the caller is an admin; false for visitors (who may not call is_admin()). Decides whether Discover Creators shows pending creators.';

create function public.search_creators(
  search text default null,
  page_size integer default 12,
  after_rank real default null,
  after_featured boolean default null,
  after_followers integer default null,
  after_latest timestamptz default null,
  after_username text default null,
  after_id uuid default null
) returns table (
  id uuid,
  username text,
  role text,
  is_verified boolean,
  bio text,
  avatar_path text,
  created_at timestamptz,
  rank real,
  featured boolean,
  followers integer,
  latest_upload timestamptz
)
  language plpgsql stable
  set search_path = ''
as $$
declare
  q tsquery := public.creator_search_query(search);
  size integer := least(greatest(coalesce(page_size, 12), 1), 50);
  admin boolean := public.creator_listing_admin();
begin
  if nullif(btrim(coalesce(search, '')), '') is not null and q is null then
    return;  -- only punctuation or markup: nothing matches
  end if;
  if q is null then
    return query
      with candidates as (
        select p.id, p.username, p.role, p.is_verified, p.bio, p.avatar_path, p.created_at, 0::real as rank
          from public.profiles p
         where p.role = 'creator'
           and (p.is_verified or admin)
      ), keyed as (
        select c.*,
               (c.is_verified and latest.at is not null) as featured,
               (select count(*) from public.follows f where f.creator_id = c.id)::integer as followers,
               latest.at as latest_upload
          from candidates c
          left join lateral (
            select max(v.created_at) as at
              from public.videos v
             where v.creator_id = c.id and v.is_public and v.status = 'ready'
          ) latest on true
      )
      select k.id, k.username, k.role, k.is_verified, k.bio, k.avatar_path, k.created_at, k.rank,
             k.featured, k.followers, k.latest_upload
        from keyed k
       where after_id is null
          or (k.featured, k.followers, coalesce(k.latest_upload, '-infinity'::timestamptz))
             < (after_featured, after_followers, coalesce(after_latest, '-infinity'::timestamptz))
          or ((k.featured, k.followers, coalesce(k.latest_upload, '-infinity'::timestamptz))
              = (after_featured, after_followers, coalesce(after_latest, '-infinity'::timestamptz))
              and (k.username, k.id) > (after_username, after_id))
       order by k.featured desc, k.followers desc, k.latest_upload desc nulls last, k.username, k.id
       limit size;
  else
    return query
      with candidates as (
        select p.id, p.username, p.role, p.is_verified, p.bio, p.avatar_path, p.created_at,
               ts_rank(to_tsvector('simple'::regconfig, translate(p.username, '._-', '   ') || ' ' || p.bio), q) as rank
          from public.profiles p
         where p.role = 'creator'
           and to_tsvector('simple'::regconfig, translate(p.username, '._-', '   ') || ' ' || p.bio) @@ q
           and (p.is_verified or admin)
      ), keyed as (
        select c.*,
               (c.is_verified and latest.at is not null) as featured,
               (select count(*) from public.follows f where f.creator_id = c.id)::integer as followers,
               latest.at as latest_upload
          from candidates c
          left join lateral (
            select max(v.created_at) as at
              from public.videos v
             where v.creator_id = c.id and v.is_public and v.status = 'ready'
          ) latest on true
      )
      select k.id, k.username, k.role, k.is_verified, k.bio, k.avatar_path, k.created_at, k.rank,
             k.featured, k.followers, k.latest_upload
        from keyed k
       where after_id is null
          or (k.rank, k.featured, k.followers, coalesce(k.latest_upload, '-infinity'::timestamptz))
             < (after_rank, after_featured, after_followers, coalesce(after_latest, '-infinity'::timestamptz))
          or ((k.rank, k.featured, k.followers, coalesce(k.latest_upload, '-infinity'::timestamptz))
              = (after_rank, after_featured, after_followers, coalesce(after_latest, '-infinity'::timestamptz))
              and (k.username, k.id) > (after_username, after_id))
       order by k.rank desc, k.featured desc, k.followers desc, k.latest_upload desc nulls last, k.username, k.id
       limit size;
  end if;
end
$$;

grant execute on function public.search_creators(text, integer, real, boolean, integer, timestamptz, text, uuid)
  to anon, authenticated, service_role;

comment on function public.search_creators(text, integer, real, boolean, integer, timestamptz, text, uuid) is
  'Discover Creators: public creator cards (no private field) — with a search of name and bio, best match first — then verified creators with public videos, most followed, latest public upload, username; keyset pages on that key. Pending (unverified) creators only for admins. Security invoker: the caller''s grants and policies apply.';

create or replace function public.count_creators(search text default null) returns bigint
  language plpgsql stable
  set search_path = ''
as $$
declare
  q tsquery := public.creator_search_query(search);
  admin boolean := public.creator_listing_admin();
begin
  if nullif(btrim(coalesce(search, '')), '') is not null and q is null then
    return 0;
  end if;
  return (
    select count(*)
      from public.profiles p
     where p.role = 'creator'
       and (p.is_verified or admin)
       and (q is null
            or to_tsvector('simple'::regconfig, translate(p.username, '._-', '   ') || ' ' || p.bio) @@ q)
  );
end
$$;

comment on function public.count_creators(text) is
  'How many creators search_creators() lists for the caller, or match a search of name and bio (Discover Creators'' count badge): verified creators, and pending ones for admins.';
