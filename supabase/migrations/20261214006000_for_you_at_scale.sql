-- For You at scale: a kept score per spark and bounded candidate lists
-- (docs/decisions/0052-for-you-at-scale.md; the score itself is ADR 0045's).
--
-- * `spark_scores`: one row per public ready spark with its creator, category, publication
--   time and `base` — the part of the For You score that is the same for every learner:
--   engagement, completion, reach and the creator's standing. Kept by triggers on videos
--   (the counters likes, comments, quotes and views already live there), video_stats
--   (completion), profiles (verified) and creator_strikes. Indexed by base, by publication
--   time, and by both within a creator and within a category.
-- * `for_you_sparks(snapshot, max_rows)` keeps its signature and its score, but scores a
--   bounded set of candidates read from those indexes — the best 1,100 unwatched sparks,
--   the 200 newest, the best and newest of the followed creators and of the learner's usual
--   categories, the best 300 outside them (discovery) — instead of every spark. The
--   candidates do not depend on the page asked for, so every page of a session ranks the
--   same set. Whether the learner watched a candidate is an index probe of
--   video_views (viewer_id, video_id, created_at): the view rows are never scanned.
-- * Their taste (the categories they watched and liked) is read from their latest 1,000
--   views and 1,000 likes, through (viewer_id, created_at) and (user_id, created_at).

-- The views a learner made, by learner: probes (did they watch this clip?) and their
-- latest views (their taste). The second replaces the plain viewer_id index.
create index video_views_viewer_video_idx on public.video_views (viewer_id, video_id, created_at);
create index video_views_viewer_recent_idx on public.video_views (viewer_id, created_at desc) include (video_id);
drop index public.video_views_viewer_id_idx;

-- The base score -------------------------------------------------------------------------------

-- Arithmetic in float8: ADR 0045's weights.
-- Engagement: (likes + 2 × comments + 2 × quotes) per view, smoothed by 20 views, at most 1 (× 2).
-- Completion: share of watch sessions that played the clip's last tenth, smoothed by 5 (× 1).
-- Reach: ln(1 + views) ÷ ln(10 001), at most 1 (× 0.5).
-- Standing: + 0.3 for a verified creator, − 0.5 per strike up to 4.
create function public.spark_base_score(
  likes integer, comments integer, quotes integer, views bigint,
  plays integer, completed integer, verified boolean, strikes integer
) returns real
  language sql immutable
  set search_path = ''
as $$
  select (
    2.0 * least(1.0, (likes + 2 * comments + 2 * quotes)::float8 / (views + 20))
    + 1.0 * coalesce(completed, 0)::float8 / (coalesce(plays, 0) + 5)
    + 0.5 * least(1.0, ln((1 + views)::float8) / ln(10001::float8))
    + case when verified then 0.3::float8 else 0 end
    - 0.5 * least(coalesce(strikes, 0), 4)
  )::real
$$;

comment on function public.spark_base_score(integer, integer, integer, bigint, integer, integer, boolean, integer) is
  'For You (ADR 0045, 0052): the learner-independent part of a spark''s score — engagement, completion, reach, creator standing.';

create table public.spark_scores (
  video_id uuid primary key references public.videos (id) on delete cascade,
  creator_id uuid not null,
  category_id text not null,
  created_at timestamptz not null,
  base real not null
);

comment on table public.spark_scores is
  'For You (ADR 0052): one row per public ready spark with the learner-independent part of its score (spark_base_score), kept by triggers; the ranking reads bounded candidate lists from its indexes. Admins read it; nobody writes it directly.';

-- Each index carries what the candidate lists read, so they are index-only scans.
create index spark_scores_best_idx on public.spark_scores (base desc, video_id) include (created_at, creator_id, category_id);
create index spark_scores_newest_idx on public.spark_scores (created_at desc, video_id) include (base, creator_id, category_id);
create index spark_scores_creator_best_idx on public.spark_scores (creator_id, base desc, video_id) include (created_at, category_id);
create index spark_scores_creator_newest_idx on public.spark_scores (creator_id, created_at desc, video_id) include (base, category_id);
create index spark_scores_category_best_idx on public.spark_scores (category_id, base desc, video_id) include (created_at, creator_id);
create index spark_scores_category_newest_idx on public.spark_scores (category_id, created_at desc, video_id) include (base, creator_id);

alter table public.spark_scores enable row level security;

-- The standing in it reflects strikes, which only admins read.
create policy "admins read spark scores"
  on public.spark_scores for select to authenticated
  using ((select public.is_admin()));

revoke all on public.spark_scores from anon;
revoke insert, update, delete, truncate on public.spark_scores from authenticated, service_role;

-- Recomputes the rows of these sparks (all of them when ids is null): a public ready spark
-- gets its row, any other loses it. A change of base under 0.001 is not written (a view of
-- a popular clip moves it by less), so most views leave the row alone. Security definer:
-- it runs from triggers fired by learners and creators, who may not write the table.
create function public.rescore_sparks(ids uuid[]) returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if ids is null then
    delete from public.spark_scores s
     where not exists (
       select 1 from public.videos v
        where v.id = s.video_id and v.type = 'spark' and v.status = 'ready' and v.is_public);
    insert into public.spark_scores as s (video_id, creator_id, category_id, created_at, base)
    select v.id, v.creator_id, v.category_id, v.created_at,
           public.spark_base_score(v.like_count, v.comment_count, v.quote_count, v.view_count,
                                   st.plays, st.tenths[10], p.is_verified, coalesce(k.strikes, 0))
      from public.videos v
      join public.profiles p on p.id = v.creator_id
      left join public.video_stats st on st.video_id = v.id
      left join (select cs.creator_id, count(*)::integer as strikes from public.creator_strikes cs group by cs.creator_id) k
        on k.creator_id = v.creator_id
     where v.type = 'spark' and v.status = 'ready' and v.is_public
    on conflict on constraint spark_scores_pkey do update
      set creator_id = excluded.creator_id, category_id = excluded.category_id,
          created_at = excluded.created_at, base = excluded.base
      where (s.creator_id, s.category_id, s.created_at) is distinct from (excluded.creator_id, excluded.category_id, excluded.created_at)
         or abs(s.base - excluded.base) >= 0.001;
    return;
  end if;

  delete from public.spark_scores s
   where s.video_id = any (ids)
     and not exists (
       select 1 from public.videos v
        where v.id = s.video_id and v.type = 'spark' and v.status = 'ready' and v.is_public);
  insert into public.spark_scores as s (video_id, creator_id, category_id, created_at, base)
  select v.id, v.creator_id, v.category_id, v.created_at,
         public.spark_base_score(v.like_count, v.comment_count, v.quote_count, v.view_count,
                                 st.plays, st.tenths[10], p.is_verified,
                                 (select count(*)::integer from public.creator_strikes cs where cs.creator_id = v.creator_id))
    from public.videos v
    join public.profiles p on p.id = v.creator_id
    left join public.video_stats st on st.video_id = v.id
   where v.id = any (ids) and v.type = 'spark' and v.status = 'ready' and v.is_public
  on conflict on constraint spark_scores_pkey do update
    set creator_id = excluded.creator_id, category_id = excluded.category_id,
        created_at = excluded.created_at, base = excluded.base
    where (s.creator_id, s.category_id, s.created_at) is distinct from (excluded.creator_id, excluded.category_id, excluded.created_at)
       or abs(s.base - excluded.base) >= 0.001;
end
$$;

revoke execute on function public.rescore_sparks(uuid[]) from public, anon, authenticated;
grant execute on function public.rescore_sparks(uuid[]) to service_role;

comment on function public.rescore_sparks(uuid[]) is
  'Recomputes spark_scores for these videos (every spark when null). Called by the triggers that keep the table; the service role may call it after a bulk load written with triggers off.';

-- The triggers that keep it ----------------------------------------------------------------------

create function public.spark_scores_follow_video() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if new.type = 'spark' or (tg_op = 'UPDATE' and old.type = 'spark') then
    perform public.rescore_sparks(array[new.id]);
  end if;
  return null;
end
$$;

revoke execute on function public.spark_scores_follow_video() from public, anon, authenticated;

create trigger videos_spark_scores after insert on public.videos
  for each row when (new.type = 'spark') execute function public.spark_scores_follow_video();

create trigger videos_spark_scores_update
  after update of type, status, is_public, category_id, creator_id, created_at,
                  like_count, comment_count, quote_count, view_count on public.videos
  for each row
  when ((old.type, old.status, old.is_public, old.category_id, old.creator_id, old.created_at,
         old.like_count, old.comment_count, old.quote_count, old.view_count)
        is distinct from
        (new.type, new.status, new.is_public, new.category_id, new.creator_id, new.created_at,
         new.like_count, new.comment_count, new.quote_count, new.view_count))
  execute function public.spark_scores_follow_video();

-- Completion: the sessions and the last tenth of video_stats.
create function public.spark_scores_follow_stats() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if exists (select 1 from public.spark_scores s where s.video_id = new.video_id) then
    perform public.rescore_sparks(array[new.video_id]);
  end if;
  return null;
end
$$;

revoke execute on function public.spark_scores_follow_stats() from public, anon, authenticated;

create trigger video_stats_spark_scores after insert on public.video_stats
  for each row execute function public.spark_scores_follow_stats();

create trigger video_stats_spark_scores_update after update of plays, tenths on public.video_stats
  for each row when (old.plays <> new.plays or old.tenths[10] is distinct from new.tenths[10])
  execute function public.spark_scores_follow_stats();

-- Standing: a creator verified (or not), a strike recorded (or forgotten).
create function public.spark_scores_follow_creator() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  creator uuid;
begin
  if tg_table_name = 'profiles' then
    creator := new.id;
  elsif tg_op = 'DELETE' then
    creator := old.creator_id;
  else
    creator := new.creator_id;
  end if;
  perform public.rescore_sparks(array(select s.video_id from public.spark_scores s where s.creator_id = creator));
  return null;
end
$$;

revoke execute on function public.spark_scores_follow_creator() from public, anon, authenticated;

create trigger profiles_spark_scores after update of is_verified on public.profiles
  for each row when (old.is_verified is distinct from new.is_verified)
  execute function public.spark_scores_follow_creator();

create trigger creator_strikes_spark_scores after insert or delete on public.creator_strikes
  for each row execute function public.spark_scores_follow_creator();

-- The sparks there are now.
select public.rescore_sparks(null);

-- The ranking ------------------------------------------------------------------------------------

-- The score is ADR 0045's: base (above) plus, for a learner with any signal, freshness,
-- the followed creator, their categories and field, minus Not interested. Only the
-- candidates are scored:
--   * the best 1,100 by base they have not watched (enough for the deepest page: offset
--     1,000, 50 a page, 40 looked ahead) — for visitors and new learners that is the
--     whole popularity order they can page through;
--   * with a signal: the 200 newest; per followed creator (the 100 latest follows) the best
--     and newest few (about 400 and 100 in all); per usual category the best and newest
--     (about 600 and 150 in all); the best 300 outside the usual categories and followed
--     creators (the discovery slots);
--   * when fewer than 1,100 unwatched sparks exist at all, the watched ones, best first.
-- None of this depends on max_rows, so every page of a session scores the same set.
create or replace function public.for_you_sparks(snapshot timestamptz default null, max_rows integer default 24)
  returns table (
    video_id uuid,
    creator_id uuid,
    category_id text,
    score real,
    watched boolean,
    discovery boolean,
    reason text
  )
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  best_size constant integer := 1100;
  uid uuid := auth.uid();
  at timestamptz := least(coalesce(snapshot, now()), now());
  n integer := least(greatest(coalesce(max_rows, 24), 1), 2000);
  field text;
  personal boolean;
  usual text[] := '{}';
  taste_categories text[] := '{}';
  taste_shares real[] := '{}';
  followed uuid[] := '{}';
  pool_creators uuid[] := '{}';
  per_creator_best integer := 0;
  per_creator_newest integer := 0;
  per_category_best integer := 0;
  per_category_newest integer := 0;
begin
  if uid is not null then
    select public.field_category(p.field_of_interest) into field from public.profiles p where p.id = uid;

    -- Their categories: what they watched (1) and liked (2) lately, as shares of the whole.
    select coalesce(array_agg(t.category_id order by t.category_id), '{}'),
           coalesce(array_agg(t.share order by t.category_id), '{}')
      into taste_categories, taste_shares
      from (
        select t.category_id, (sum(t.weight) / sum(sum(t.weight)) over ())::real as share
          from (
            select v.category_id, 1 as weight
              from (select distinct r.video_id
                      from (select vv.video_id from public.video_views vv
                             where vv.viewer_id = uid and vv.created_at <= at
                             order by vv.created_at desc limit 1000) r) w
              join public.videos v on v.id = w.video_id
            union all
            select v.category_id, 2
              from (select l.video_id from public.video_likes l
                     where l.user_id = uid and l.created_at <= at
                     order by l.created_at desc limit 1000) l
              join public.videos v on v.id = l.video_id
          ) t
         group by t.category_id
      ) t;

    select coalesce(array_agg(f.creator_id order by f.created_at desc, f.creator_id), '{}') into followed
      from public.follows f
     where f.follower_id = uid and f.created_at <= at;
  end if;

  personal := uid is not null and (field is not null or cardinality(taste_categories) > 0 or cardinality(followed) > 0);
  select coalesce(array_agg(u.c), '{}') into usual
    from unnest(taste_categories, taste_shares) as u(c, share)
   where u.share >= 0.1;
  if field is not null and not (field = any (usual)) then
    usual := array_append(usual, field);
  end if;

  if personal then
    pool_creators := followed[1:100];
    per_creator_best := least(40, greatest(5, 400 / greatest(cardinality(pool_creators), 1)));
    per_creator_newest := least(10, greatest(2, 100 / greatest(cardinality(pool_creators), 1)));
    per_category_best := least(100, greatest(20, 600 / greatest(cardinality(usual), 1)));
    per_category_newest := least(25, greatest(5, 150 / greatest(cardinality(usual), 1)));
  end if;

  -- Every list reads its index alone (each carries the columns scored); `seen` is known
  -- for the first two lists and probed for the others.
  return query
    with best as materialized (
      -- The best they have not watched.
      select s.video_id, s.creator_id, s.category_id, s.created_at, s.base
        from public.spark_scores s
       where s.created_at <= at and s.creator_id is distinct from uid
         and not exists (
           select 1 from public.video_views vv
            where vv.viewer_id = uid and vv.video_id = s.video_id and vv.created_at <= at)
       order by s.base desc, s.video_id
       limit best_size
    ), rewatch as materialized (
      -- Everything unwatched fits in that list: the watched ones follow, best first.
      select s.video_id, s.creator_id, s.category_id, s.created_at, s.base
        from public.spark_scores s
       where uid is not null and (select count(*) from best) < best_size
         and s.created_at <= at and s.creator_id is distinct from uid
         and exists (
           select 1 from public.video_views vv
            where vv.viewer_id = uid and vv.video_id = s.video_id and vv.created_at <= at)
       order by s.base desc, s.video_id
       limit best_size
    ), others as (
      (select s.video_id, s.creator_id, s.category_id, s.created_at, s.base
         from public.spark_scores s
        where personal and s.created_at <= at and s.creator_id is distinct from uid
        order by s.created_at desc, s.video_id
        limit 200)
      union all
      (select p.*
         from unnest(pool_creators) as fc(id)
         cross join lateral (
           select s.video_id, s.creator_id, s.category_id, s.created_at, s.base
             from public.spark_scores s
            where s.creator_id = fc.id and s.created_at <= at and s.creator_id is distinct from uid
            order by s.base desc, s.video_id
            limit per_creator_best) p)
      union all
      (select p.*
         from unnest(pool_creators) as fc(id)
         cross join lateral (
           select s.video_id, s.creator_id, s.category_id, s.created_at, s.base
             from public.spark_scores s
            where s.creator_id = fc.id and s.created_at <= at and s.creator_id is distinct from uid
            order by s.created_at desc, s.video_id
            limit per_creator_newest) p)
      union all
      (select p.*
         from unnest(case when personal then usual else '{}'::text[] end) as uc(id)
         cross join lateral (
           select s.video_id, s.creator_id, s.category_id, s.created_at, s.base
             from public.spark_scores s
            where s.category_id = uc.id and s.created_at <= at and s.creator_id is distinct from uid
            order by s.base desc, s.video_id
            limit per_category_best) p)
      union all
      (select p.*
         from unnest(case when personal then usual else '{}'::text[] end) as uc(id)
         cross join lateral (
           select s.video_id, s.creator_id, s.category_id, s.created_at, s.base
             from public.spark_scores s
            where s.category_id = uc.id and s.created_at <= at and s.creator_id is distinct from uid
            order by s.created_at desc, s.video_id
            limit per_category_newest) p)
      union all
      -- The best outside their usual categories and followed creators (discovery).
      (select s.video_id, s.creator_id, s.category_id, s.created_at, s.base
         from public.spark_scores s
        where personal and s.created_at <= at and s.creator_id is distinct from uid
          and not (s.category_id = any (usual)) and not (s.creator_id = any (followed))
          and not exists (
            select 1 from public.video_views vv
             where vv.viewer_id = uid and vv.video_id = s.video_id and vv.created_at <= at)
        order by s.base desc, s.video_id
        limit 300)
    ), candidates as materialized (
      select c.video_id, c.creator_id, c.category_id, c.created_at, c.base, bool_or(c.seen) as seen
        from (
          select b.*, false as seen from best b
          union all
          select r.*, true from rewatch r
          union all
          select o.*, null::boolean from others o
        ) c
       group by c.video_id, c.creator_id, c.category_id, c.created_at, c.base
    ), followed_creators as materialized (
      select distinct f.id from unnest(followed) as f(id)
    ), dismissed as materialized (
      select ni.video_id, ni.creator_id from public.not_interested ni where ni.user_id = uid and ni.created_at <= at
    ), scored as materialized (
      select c.video_id, c.creator_id, c.category_id,
             (
               c.base
               -- personal terms (none for visitors and new learners: a popularity order)
               + case when personal then
                   exp(-greatest(extract(epoch from (at - c.created_at))::float8, 0) / 172800.0::float8)
                   + case when fo.id is not null then 3.0 else 0 end
                   + 2.5 * coalesce(tt.share, 0)
                   + case when c.category_id = field then 1.0 else 0 end
                 else 0 end
               -- Not interested (the clip; the creator when asked)
               - case when dv.video_id is not null then 10.0 else 0 end
               - case when exists (select 1 from dismissed d where d.creator_id = c.creator_id) then 4.0 else 0 end
             )::real as score,
             coalesce(c.seen, exists (
               select 1 from public.video_views vv
                where vv.viewer_id = uid and vv.video_id = c.video_id and vv.created_at <= at)) as watched,
             (personal and fo.id is null and not (c.category_id = any (usual))) as discovery,
             case
               when personal and fo.id is not null then 'follow'
               when personal and c.category_id = any (usual) then 'interest'
               when c.created_at > at - interval '48 hours' then 'new'
               when personal then 'discovery'
               else 'popular'
             end as reason
        from candidates c
        left join followed_creators fo on fo.id = c.creator_id
        left join unnest(taste_categories, taste_shares) as tt(category_id, share) on tt.category_id = c.category_id
        left join dismissed dv on dv.video_id = c.video_id
    )
    (select x.video_id, x.creator_id, x.category_id, x.score, x.watched, x.discovery, x.reason
       from scored x
      order by x.watched, x.score desc, x.video_id
      limit n)
    union
    (select x.video_id, x.creator_id, x.category_id, x.score, x.watched, x.discovery, x.reason
       from scored x
      where x.discovery
      order by x.watched, x.score desc, x.video_id
      limit n / 4 + 1);
end
$$;

comment on function public.for_you_sparks(timestamptz, integer) is
  'For You (ADR 0045, 0052): the caller''s best public ready sparks (not their own) as of `snapshot`, scored, unwatched first; plus the best outside their usual categories (discovery). Scores bounded candidate lists read from spark_scores'' indexes. The arrangement (one in four discovery, at most two in a row per creator) is app/server/for-you.server.ts''s.';
