-- For You's impersonal part cached per version (docs/decisions/0064-for-you-catalog-cache.md).
--
-- * `spark_scores_version`: one row whose token changes, in the same transaction, with every
--   write to spark_scores (statement triggers that look at the rows changed, so a rescore that
--   writes nothing changes nothing). A process that read spark_scores together with token T
--   holds exactly what any transaction that reads T sees in spark_scores. Admins read it;
--   nobody writes it directly.
-- * `for_you_signals(snapshot)`: everything personal that for_you_sparks() reads for the
--   caller, as one row — the snapshot time, the token, their field, usual categories and
--   taste, follows, Not interested, and which sparks they watched — so the app ranks its
--   cached copy of spark_scores for them (app/server/for-you-catalog.server.ts) with the
--   same rules as for_you_sparks(), which stays as it is for larger catalogues.

create table public.spark_scores_version (
  id boolean primary key default true check (id),
  token uuid not null default gen_random_uuid(),
  changed_at timestamptz not null default now()
);

comment on table public.spark_scores_version is
  'For You (ADR 0064): one row; its token changes with every write to spark_scores, in the same transaction. The app keeps a copy of spark_scores per token. Admins read it; nobody writes it directly.';

insert into public.spark_scores_version default values;

alter table public.spark_scores_version enable row level security;

create policy "admins read the spark scores version"
  on public.spark_scores_version for select to authenticated
  using ((select public.is_admin()));

revoke all on public.spark_scores_version from anon;
revoke insert, update, delete, truncate on public.spark_scores_version from authenticated, service_role;

-- Security definer: the writes to spark_scores come from its own (definer) triggers, fired by
-- learners and creators, who may not write this table.
create function public.spark_scores_bump_version() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if tg_op = 'TRUNCATE' or exists (select 1 from changed) then
    update public.spark_scores_version set token = gen_random_uuid(), changed_at = now();
  end if;
  return null;
end
$$;

revoke execute on function public.spark_scores_bump_version() from public, anon, authenticated;

-- A trigger with transition tables has one event each; TRUNCATE has none to look at.
create function public.spark_scores_bump_version_truncate() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  update public.spark_scores_version set token = gen_random_uuid(), changed_at = now();
  return null;
end
$$;

revoke execute on function public.spark_scores_bump_version_truncate() from public, anon, authenticated;

create trigger spark_scores_version_insert after insert on public.spark_scores
  referencing new table as changed
  for each statement execute function public.spark_scores_bump_version();
create trigger spark_scores_version_update after update on public.spark_scores
  referencing new table as changed
  for each statement execute function public.spark_scores_bump_version();
create trigger spark_scores_version_delete after delete on public.spark_scores
  referencing old table as changed
  for each statement execute function public.spark_scores_bump_version();
create trigger spark_scores_version_truncate after truncate on public.spark_scores
  for each statement execute function public.spark_scores_bump_version_truncate();

-- The personal part ---------------------------------------------------------------------------------

-- The same reads, limits and rules as the start of for_you_sparks() (ADR 0052): their taste from
-- their latest 1,000 views and 1,000 likes before the snapshot, their follows (latest first),
-- their usual categories (≥ 10 % of that taste, and their field), their Not interested; and the
-- public ready sparks they watched before the snapshot. `at` is the snapshot (never later than
-- now), as ISO text with microseconds (for the cursor) and as microseconds since 1970.
create function public.for_you_signals(snapshot timestamptz default null)
  returns table (
    at_text text,
    at_us bigint,
    version uuid,
    personal boolean,
    field text,
    usual text[],
    taste_categories text[],
    taste_shares real[],
    followed uuid[],
    dismissed_videos uuid[],
    dismissed_creators uuid[],
    watched uuid[]
  )
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  at timestamptz := least(coalesce(snapshot, now()), now());
begin
  at_text := to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  at_us := (extract(epoch from at) * 1000000)::bigint;
  select v.token into version from public.spark_scores_version v;
  usual := '{}';
  taste_categories := '{}';
  taste_shares := '{}';
  followed := '{}';
  dismissed_videos := '{}';
  dismissed_creators := '{}';
  watched := '{}';

  if uid is not null then
    select public.field_category(p.field_of_interest) into field from public.profiles p where p.id = uid;

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

    select coalesce(array_agg(ni.video_id), '{}'),
           coalesce(array_agg(distinct ni.creator_id) filter (where ni.creator_id is not null), '{}')
      into dismissed_videos, dismissed_creators
      from public.not_interested ni
     where ni.user_id = uid and ni.created_at <= at;

    -- The sparks they watched: through their views or through the sparks, the planner's choice
    -- (both by index; bounded by the smaller).
    select coalesce(array_agg(s.video_id), '{}') into watched
      from public.spark_scores s
     where exists (
       select 1 from public.video_views vv
        where vv.viewer_id = uid and vv.video_id = s.video_id and vv.created_at <= at);
  end if;

  personal := uid is not null and (field is not null or cardinality(taste_categories) > 0 or cardinality(followed) > 0);
  select coalesce(array_agg(u.c), '{}') into usual
    from unnest(taste_categories, taste_shares) as u(c, share)
   where u.share >= 0.1;
  if field is not null and not (field = any (usual)) then
    usual := array_append(usual, field);
  end if;
  return next;
end
$$;

revoke execute on function public.for_you_signals(timestamptz) from public, anon;
grant execute on function public.for_you_signals(timestamptz) to authenticated, service_role;

comment on function public.for_you_signals(timestamptz) is
  'For You (ADR 0064): the caller''s personal signals as for_you_sparks() reads them (taste, follows, Not interested, usual categories, the sparks they watched) with the snapshot time and spark_scores'' version token, for the app to rank its cached copy of spark_scores.';
