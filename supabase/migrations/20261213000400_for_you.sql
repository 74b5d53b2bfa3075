-- For You: sparks ranked for each learner, "Not interested", creator strikes
-- (docs/decisions/0045-for-you-ranking.md).
--
-- * `creator_strikes`: one row per piece of a creator's content removed on a report
--   (a report upheld against them), written by a trigger on reports before the content
--   goes (afterwards its owner is unknown). Admins read it; nobody writes it directly.
-- * `not_interested`: a learner's "Not interested" on a clip and, when they chose
--   "Also fewer from <creator>", that creator. Private to the learner.
-- * `for_you_sparks(snapshot, max_rows)`: the caller's For You candidates, scored. Security
--   definer (it reads the completion counters of video_stats and the strikes, which
--   learners may not read), so it applies the videos policies itself: public ready sparks
--   only, never the caller's own or anyone's private ones. Everything personal it reads is
--   the caller's own (auth.uid()), as of `snapshot`, so the pages of one session rank alike.

-- Creator strikes -------------------------------------------------------------------------

create table public.creator_strikes (
  content_type text not null check (content_type in ('video', 'quote', 'comment')),
  content_id uuid not null,
  creator_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (content_type, content_id)
);

comment on table public.creator_strikes is
  'One row per piece of a creator''s content removed on a report (a report upheld against them); lowers their sparks in For You. Written by a trigger on reports.';

create index creator_strikes_creator_id_idx on public.creator_strikes (creator_id);

alter table public.creator_strikes enable row level security;

create policy "admins read creator strikes"
  on public.creator_strikes for select to authenticated
  using ((select public.is_admin()));

revoke all on public.creator_strikes from anon;
revoke insert, update, delete, truncate on public.creator_strikes from authenticated;

-- Runs before the removal (reports_remove_content deletes the content after the update),
-- so the content's owner can still be read. Security definer: the admin deciding may not
-- write strikes through the API.
create function public.record_creator_strike() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  owner uuid;
begin
  owner := case new.content_type
    when 'video' then (select v.creator_id from public.videos v where v.id = new.content_id)
    when 'quote' then (select q.user_id from public.quotes q where q.id = new.content_id)
    when 'comment' then (select c.user_id from public.comments c where c.id = new.content_id)
  end;
  if owner is not null then
    insert into public.creator_strikes (content_type, content_id, creator_id)
    values (new.content_type, new.content_id, owner)
    on conflict on constraint creator_strikes_pkey do nothing;
  end if;
  return new;
end
$$;

revoke execute on function public.record_creator_strike() from public, anon, authenticated;

create trigger reports_record_creator_strike before update of status on public.reports
  for each row when (new.status = 'removed' and old.status <> 'removed')
  execute function public.record_creator_strike();

-- Not interested ----------------------------------------------------------------------------

create table public.not_interested (
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  video_id uuid not null references public.videos (id) on delete cascade,
  -- The clip's creator when the learner also asked for fewer of their clips; else null.
  creator_id uuid references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, video_id)
);

comment on table public.not_interested is
  'A learner''s "Not interested" on a spark (and, with creator_id, on its creator''s sparks): they go down in that learner''s For You. Private to the learner.';

create index not_interested_video_id_idx on public.not_interested (video_id);
create index not_interested_creator_idx on public.not_interested (creator_id, user_id) where creator_id is not null;

create trigger not_interested_stamp_created_at before insert on public.not_interested
  for each row execute function public.stamp_created_at();

alter table public.not_interested enable row level security;

create policy "learners read their own not interested"
  on public.not_interested for select to authenticated
  using (user_id = (select auth.uid()));

-- A clip the learner can see; the creator, when given, is that clip's.
create policy "learners mark clips they can see as not interested"
  on public.not_interested for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (
      select 1 from public.videos v
       where v.id = video_id
         and v.is_public and v.status = 'ready'
         and (not_interested.creator_id is null or v.creator_id = not_interested.creator_id)
    )
  );

create policy "learners change their own not interested"
  on public.not_interested for update to authenticated
  using (user_id = (select auth.uid()))
  with check (
    user_id = (select auth.uid())
    and exists (
      select 1 from public.videos v
       where v.id = video_id
         and (not_interested.creator_id is null or v.creator_id = not_interested.creator_id)
    )
  );

create policy "learners take back their own not interested"
  on public.not_interested for delete to authenticated
  using (user_id = (select auth.uid()));

revoke all on public.not_interested from anon;

-- The field of interest (profile) as a category ------------------------------------------

create function public.field_category(field text) returns text
  language sql immutable
  set search_path = ''
as $$
  select case field
    when 'Physics' then 'natural-sciences-physics'
    when 'Chemistry' then 'natural-sciences-chemistry'
    when 'Biology' then 'natural-sciences-biology'
    when 'Engineering' then 'applied-sciences-engineering'
    when 'Medicine' then 'applied-sciences-medical-biomedical-sciences'
    when 'Computer Science' then 'technology-innovation'
    when 'Mathematics' then 'education-personal-development'
    when 'Arts' then 'arts-creativity'
    when 'Humanities' then 'society-culture'
    when 'Social Sciences' then 'society-culture'
    when 'Business' then 'business-finance'
  end
$$;

comment on function public.field_category(text) is
  'The content category closest to a profile''s field of interest (null for none).';

-- The score ------------------------------------------------------------------------------------

-- Popularity: counters kept on the videos row and in video_stats (never the view rows).
-- Arithmetic in float8: numeric ln()/exp() over every spark cost seconds at 100,000.
-- Engagement: (likes + 2 × comments + 2 × quotes) per view, smoothed by 20 views, at most 1.
-- Completion: share of watch sessions that played the clip's last tenth, smoothed by 5.
create function public.for_you_sparks(snapshot timestamptz default null, max_rows integer default 24)
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
  uid uuid := auth.uid();
  at timestamptz := least(coalesce(snapshot, now()), now());
  n integer := least(greatest(coalesce(max_rows, 24), 1), 2000);
  field text;
  personal boolean;
  usual text[];
  taste_categories text[] := '{}';
  taste_shares real[] := '{}';
begin
  if uid is not null then
    select public.field_category(p.field_of_interest) into field from public.profiles p where p.id = uid;
  end if;

  -- The learner's categories: what they watched (1) and liked (2), as shares of the whole,
  -- plus their field of interest. Their own rows only, through their indexes.
  if uid is not null then
    select coalesce(array_agg(t.category_id order by t.category_id), '{}'),
           coalesce(array_agg(t.share order by t.category_id), '{}')
      into taste_categories, taste_shares
      from (
        select t.category_id, (sum(t.weight) / sum(sum(t.weight)) over ())::real as share
          from (
            select v.category_id, 1 as weight
              from (select distinct vv.video_id from public.video_views vv
                     where vv.viewer_id = uid and vv.created_at <= at) w
              join public.videos v on v.id = w.video_id
            union all
            select v.category_id, 2
              from public.video_likes l
              join public.videos v on v.id = l.video_id
             where l.user_id = uid and l.created_at <= at
          ) t
         group by t.category_id
      ) t;
  end if;

  personal := uid is not null and (
    field is not null
    or cardinality(taste_categories) > 0
    or exists (select 1 from public.follows f where f.follower_id = uid and f.created_at <= at)
  );
  select coalesce(array_agg(c), '{}') into usual
    from unnest(taste_categories, taste_shares) as u(c, share)
   where u.share >= 0.1;
  if field is not null then
    usual := array_append(usual, field);
  end if;

  return query
    with followed as materialized (
      select f.creator_id from public.follows f where f.follower_id = uid and f.created_at <= at
    ), seen as materialized (
      select distinct vv.video_id from public.video_views vv where vv.viewer_id = uid and vv.created_at <= at
    ), dismissed as materialized (
      select ni.video_id, ni.creator_id from public.not_interested ni where ni.user_id = uid and ni.created_at <= at
    ), strikes as materialized (
      select cs.creator_id, count(*)::integer as strikes from public.creator_strikes cs group by cs.creator_id
    ), scored as materialized (
      select v.id, v.creator_id, v.category_id,
             (
               -- popularity: counters only
               2.0 * least(1.0, (v.like_count + 2 * v.comment_count + 2 * v.quote_count)::float8 / (v.view_count + 20))
               + 1.0 * coalesce(s.tenths[10], 0)::float8 / (coalesce(s.plays, 0) + 5)
               + 0.5 * least(1.0, ln((1 + v.view_count)::float8) / ln(10001::float8))
               -- creator standing
               + case when p.is_verified then 0.3::float8 else 0 end
               - 0.5 * least(coalesce(st.strikes, 0), 4)
               -- personal terms (none for visitors and new learners: a popularity order)
               + case when personal then
                   exp(-greatest(extract(epoch from (at - v.created_at))::float8, 0) / 172800.0::float8)
                   + case when fo.creator_id is not null then 3.0 else 0 end
                   + 2.5 * coalesce(tt.share, 0)
                   + case when v.category_id = field then 1.0 else 0 end
                 else 0 end
               -- Not interested (the clip; the creator when asked)
               - case when dv.video_id is not null then 10.0 else 0 end
               - case when dc.creator_id is not null then 4.0 else 0 end
             )::real as score,
             (se.video_id is not null) as watched,
             (personal and fo.creator_id is null and not (v.category_id = any (usual))) as discovery,
             case
               when personal and fo.creator_id is not null then 'follow'
               when personal and v.category_id = any (usual) then 'interest'
               when v.created_at > at - interval '48 hours' then 'new'
               when personal and fo.creator_id is null then 'discovery'
               else 'popular'
             end as reason
        from public.videos v
        join public.profiles p on p.id = v.creator_id
        left join public.video_stats s on s.video_id = v.id
        left join strikes st on st.creator_id = v.creator_id
        left join followed fo on fo.creator_id = v.creator_id
        left join unnest(taste_categories, taste_shares) as tt(category_id, share) on tt.category_id = v.category_id
        left join seen se on se.video_id = v.id
        left join dismissed dv on dv.video_id = v.id
        left join (select distinct d.creator_id from dismissed d where d.creator_id is not null) dc
          on dc.creator_id = v.creator_id
       where v.type = 'spark' and v.status = 'ready' and v.is_public
         and v.created_at <= at
         and v.creator_id is distinct from uid
    )
    (select x.id, x.creator_id, x.category_id, x.score, x.watched, x.discovery, x.reason
       from scored x
      order by x.watched, x.score desc, x.id
      limit n)
    union
    (select x.id, x.creator_id, x.category_id, x.score, x.watched, x.discovery, x.reason
       from scored x
      where x.discovery
      order by x.watched, x.score desc, x.id
      limit n / 4 + 1);
end
$$;

revoke execute on function public.for_you_sparks(timestamptz, integer) from public;
-- Visitors' popularity order is read by the server as the service role (no personal part):
-- anon reaches no security-definer function but the allow-listed searches.
revoke execute on function public.for_you_sparks(timestamptz, integer) from anon;
grant execute on function public.for_you_sparks(timestamptz, integer) to authenticated, service_role;

comment on function public.for_you_sparks(timestamptz, integer) is
  'For You (ADR 0045): the caller''s best public ready sparks (not their own) as of `snapshot`, scored, unwatched first; plus the best outside their usual categories (discovery). The arrangement (one in four discovery, at most two in a row per creator) is app/server/for-you.server.ts''s.';
