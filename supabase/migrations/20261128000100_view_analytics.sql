-- Honest view counting and the creator dashboard's roll-ups (ADR 0015).
--
-- * A view counts from the player's progress reports (public.report_watch): once the
--   viewer has watched 10 s, or half of a clip shorter than 20 s, as credited by the
--   server (never more than the wall-clock time between two reports), once per viewer,
--   video and hour (video_views' unique key). Without JavaScript the page view counts
--   (public.record_view, once per viewer, video and hour).
-- * videos.view_count follows video_views by trigger, like like_count and comment_count.
-- * Daily figures come from roll-ups kept by triggers in 15-minute buckets (so that a
--   day in any time zone, even UTC+5:45, is a whole number of buckets): per creator
--   (creator_activity) and per video (video_activity); per-video totals of watch time,
--   plays and the retention counters (video_stats). A dashboard reads at most a few
--   thousand roll-up rows however many views there are.

-- The creator's time zone (daily points are days there) --------------------------------

alter table public.profiles add column time_zone text not null default 'UTC'
  check (char_length(time_zone) between 1 and 64);

comment on column public.profiles.time_zone is 'IANA time zone the dashboard''s days are counted in.';

create function public.check_time_zone() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  perform now() at time zone new.time_zone;
  return new;
exception when others then
  raise exception 'unknown time zone %', new.time_zone using errcode = '22023';
end
$$;

create trigger profiles_check_time_zone before insert or update of time_zone on public.profiles
  for each row execute function public.check_time_zone();

-- Roll-ups ---------------------------------------------------------------------------

create function public.activity_bucket(at timestamptz) returns timestamptz
  language sql immutable
  set search_path = ''
as $$
  select pg_catalog.date_bin('15 minutes', at, timestamptz '2000-01-01 00:00+00')
$$;

comment on function public.activity_bucket(timestamptz) is
  'The 15-minute bucket of a moment (roll-ups are kept in these, so any time zone''s day is whole buckets).';

create table public.creator_activity (
  creator_id uuid not null references public.profiles (id) on delete cascade,
  bucket timestamptz not null,
  views integer not null default 0 check (views >= 0),
  likes integer not null default 0 check (likes >= 0),
  comments integer not null default 0 check (comments >= 0),
  watch_seconds numeric(14, 3) not null default 0 check (watch_seconds >= 0),
  primary key (creator_id, bucket)
);

comment on table public.creator_activity is
  'Per creator and 15-minute bucket: views, likes and comments their videos received, and seconds watched. Kept by triggers; sums equal the rows they summarise.';

create table public.video_activity (
  video_id uuid not null references public.videos (id) on delete cascade,
  bucket timestamptz not null,
  views integer not null default 0 check (views >= 0),
  likes integer not null default 0 check (likes >= 0),
  comments integer not null default 0 check (comments >= 0),
  watch_seconds numeric(14, 3) not null default 0 check (watch_seconds >= 0),
  primary key (video_id, bucket)
);

comment on table public.video_activity is
  'Per video and 15-minute bucket: views, likes, comments and seconds watched. Kept by triggers.';

create table public.video_stats (
  video_id uuid primary key references public.videos (id) on delete cascade,
  plays integer not null default 0 check (plays >= 0),
  watch_seconds numeric(14, 3) not null default 0 check (watch_seconds >= 0),
  tenths integer[] not null default array_fill(0, array[10]) check (cardinality(tenths) = 10)
);

comment on table public.video_stats is
  'Per video: plays (watch sessions), seconds watched, and for each tenth of the video how many sessions played it (the retention curve). Kept by public.report_watch().';

alter table public.creator_activity enable row level security;
alter table public.video_activity enable row level security;
alter table public.video_stats enable row level security;

create policy "creators read their own activity and admins read all"
  on public.creator_activity for select to authenticated
  using (creator_id = (select auth.uid()) or (select public.is_admin()));

create policy "creators read their videos' activity and admins read all"
  on public.video_activity for select to authenticated
  using (
    (select public.is_admin())
    or exists (select 1 from public.videos v where v.id = video_id and v.creator_id = (select auth.uid()))
  );

create policy "creators read their videos' stats and admins read all"
  on public.video_stats for select to authenticated
  using (
    (select public.is_admin())
    or exists (select 1 from public.videos v where v.id = video_id and v.creator_id = (select auth.uid()))
  );

-- Adds to both roll-ups of a video at a moment. Security definer: called from triggers
-- that run as the caller (a learner liking), who may not write roll-ups.
create function public.bump_activity(
  video_id uuid, at timestamptz, views integer, likes integer, comments integer, watch_seconds numeric
) returns void
  language plpgsql security definer
  set search_path = ''
as $$
declare
  owner uuid;
  b timestamptz := public.activity_bucket(bump_activity.at);
begin
  select v.creator_id into owner from public.videos v where v.id = bump_activity.video_id;
  if owner is null then
    return; -- the video is being deleted: its roll-ups go with it (public.forget_video_activity)
  end if;
  if least(bump_activity.views, bump_activity.likes, bump_activity.comments) < 0 then
    -- Taking back (an unlike, a deleted comment): the bucket exists, and a negative
    -- row could not even be proposed to an upsert (checks run before the conflict).
    update public.video_activity a
       set views = a.views + bump_activity.views, likes = a.likes + bump_activity.likes, comments = a.comments + bump_activity.comments
     where a.video_id = bump_activity.video_id and a.bucket = b;
    update public.creator_activity a
       set views = a.views + bump_activity.views, likes = a.likes + bump_activity.likes, comments = a.comments + bump_activity.comments
     where a.creator_id = owner and a.bucket = b;
    return;
  end if;
  insert into public.video_activity as a (video_id, bucket, views, likes, comments, watch_seconds)
  values (bump_activity.video_id, b, bump_activity.views, bump_activity.likes, bump_activity.comments, bump_activity.watch_seconds)
  on conflict on constraint video_activity_pkey do update
    set views = a.views + excluded.views, likes = a.likes + excluded.likes,
        comments = a.comments + excluded.comments, watch_seconds = a.watch_seconds + excluded.watch_seconds;
  insert into public.creator_activity as a (creator_id, bucket, views, likes, comments, watch_seconds)
  values (owner, b, bump_activity.views, bump_activity.likes, bump_activity.comments, bump_activity.watch_seconds)
  on conflict on constraint creator_activity_pkey do update
    set views = a.views + excluded.views, likes = a.likes + excluded.likes,
        comments = a.comments + excluded.comments, watch_seconds = a.watch_seconds + excluded.watch_seconds;
end
$$;

revoke execute on function public.bump_activity(uuid, timestamptz, integer, integer, integer, numeric) from public, anon, authenticated;

-- AFTER INSERT OR DELETE on video_views, video_likes, comments: argument = the column
-- of the roll-ups it counts. A row counts in the bucket of its created_at.
create function public.roll_up_activity() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  r record;
  delta integer := case when tg_op = 'INSERT' then 1 else -1 end;
begin
  if tg_op = 'INSERT' then r := new; else r := old; end if;
  perform public.bump_activity(
    r.video_id, r.created_at,
    case when tg_argv[0] = 'views' then delta else 0 end,
    case when tg_argv[0] = 'likes' then delta else 0 end,
    case when tg_argv[0] = 'comments' then delta else 0 end,
    0
  );
  return null;
end
$$;

revoke execute on function public.roll_up_activity() from public, anon, authenticated;

create trigger video_views_roll_up after insert or delete on public.video_views
  for each row execute function public.roll_up_activity('views');
create trigger video_likes_roll_up after insert or delete on public.video_likes
  for each row execute function public.roll_up_activity('likes');
create trigger comments_roll_up after insert or delete on public.comments
  for each row execute function public.roll_up_activity('comments');

-- A deleted video takes its share out of its creator's roll-up (its own rows cascade;
-- the cascaded deletes of its views, likes and comments then find no video and skip).
create function public.forget_video_activity() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  update public.creator_activity c
     set views = c.views - a.views, likes = c.likes - a.likes,
         comments = c.comments - a.comments, watch_seconds = c.watch_seconds - a.watch_seconds
    from public.video_activity a
   where a.video_id = old.id and c.creator_id = old.creator_id and c.bucket = a.bucket;
  return old;
end
$$;

revoke execute on function public.forget_video_activity() from public, anon, authenticated;

create trigger videos_forget_activity before delete on public.videos
  for each row execute function public.forget_video_activity();

-- videos.view_count follows video_views, as like_count follows video_likes ------------

create trigger video_views_count after insert or delete on public.video_views
  for each row execute function public.maintain_counter('public.videos', 'view_count', 'video_id');

-- The same visibility as before (see 20261121000200_videos.sql); the counter is now the trigger's.
create or replace function public.record_view(video_id uuid, viewer_key text default null) returns boolean
  language plpgsql security definer
  set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  key text;
begin
  if not exists (
    select 1 from public.videos v
     where v.id = record_view.video_id
       and (v.is_public or v.creator_id = uid or (uid is not null and public.is_admin()))
  ) then
    return false;
  end if;

  if uid is not null then
    key := uid::text;
  elsif nullif(btrim(record_view.viewer_key), '') is not null then
    key := 'anon:' || left(btrim(record_view.viewer_key), 128);
  else
    raise exception 'a visitor''s view needs a viewer_key' using errcode = '22004';
  end if;

  insert into public.video_views (video_id, viewer_id, viewer_key, viewed_hour)
  values (record_view.video_id, (select p.id from public.profiles p where p.id = uid), key, date_trunc('hour', now(), 'UTC'))
  on conflict on constraint video_views_once_per_hour do nothing;
  return found;
end
$$;

-- Watch sessions: the player's progress reports ---------------------------------------

create table public.video_watch_sessions (
  id uuid primary key,
  video_id uuid not null references public.videos (id) on delete cascade,
  viewer_id uuid references public.profiles (id) on delete set null,
  viewer_key text not null check (char_length(viewer_key) between 1 and 200),
  started_at timestamptz not null default now(),
  last_report_at timestamptz not null default now(),
  watched_seconds numeric(10, 3) not null default 0 check (watched_seconds >= 0),
  tenths integer not null default 0 check (tenths between 0 and 1023),
  counted boolean not null default false
);

comment on table public.video_watch_sessions is
  'One player session (a page''s playback of a video): seconds watched as credited by the server, the tenths of the video played (bit k = tenth k), whether it has counted as a view. Written only by public.report_watch().';

create index video_watch_sessions_video_id_idx on public.video_watch_sessions (video_id, started_at);
create index video_watch_sessions_viewer_id_idx on public.video_watch_sessions (viewer_id);

alter table public.video_watch_sessions enable row level security;

create policy "creators read the watch sessions of their videos and admins read all"
  on public.video_watch_sessions for select to authenticated
  using (
    (select public.is_admin())
    or exists (select 1 from public.videos v where v.id = video_id and v.creator_id = (select auth.uid()))
  );

-- One progress report. The server credits what `played_seconds` says, but a session's
-- total never exceeds the wall-clock time since it started (plus 2 s of slack for
-- timers); the view counts once the credited time reaches 10 s (half the clip when it is
-- shorter than 20 s), once per viewer, video and hour. Refuses (42501) a video the
-- caller cannot see or that is not playable, and a session id that is someone else's.
-- Returns whether this report counted a view. Visitors report through the server
-- (service role) with a per-browser key, as for public.record_view.
create function public.report_watch(
  session_id uuid,
  video_id uuid,
  played_seconds numeric,
  tenths integer default 0,
  viewer_key text default null
) returns boolean
  language plpgsql security definer
  set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  key text;
  vid record;
  s public.video_watch_sessions;
  credit numeric;
  threshold numeric;
  new_bits integer;
  counted_now boolean := false;
begin
  select v.id, v.duration_seconds into vid
    from public.videos v
   where v.id = report_watch.video_id
     and (v.status = 'ready' or v.external_url is not null)
     and (v.is_public or v.creator_id = uid or (uid is not null and public.is_admin()));
  if not found then
    raise exception 'no such video to watch' using errcode = '42501';
  end if;

  if uid is not null then
    key := uid::text;
  elsif nullif(btrim(report_watch.viewer_key), '') is not null then
    key := 'anon:' || left(btrim(report_watch.viewer_key), 128);
  else
    raise exception 'a visitor''s report needs a viewer_key' using errcode = '22004';
  end if;

  insert into public.video_watch_sessions (id, video_id, viewer_id, viewer_key)
  values (report_watch.session_id, report_watch.video_id, (select p.id from public.profiles p where p.id = uid), key)
  on conflict on constraint video_watch_sessions_pkey do nothing;
  if found then
    insert into public.video_stats as st (video_id, plays) values (report_watch.video_id, 1)
    on conflict on constraint video_stats_pkey do update set plays = st.plays + 1;
  end if;

  select * into s from public.video_watch_sessions w where w.id = report_watch.session_id for update;
  if s.video_id <> report_watch.video_id or s.viewer_key <> key then
    raise exception 'not your watch session' using errcode = '42501';
  end if;

  credit := greatest(0, least(
    coalesce(report_watch.played_seconds, 0),
    extract(epoch from now() - s.started_at) + 2 - s.watched_seconds,
    600
  ));
  new_bits := (coalesce(report_watch.tenths, 0) & 1023) & ~s.tenths;

  update public.video_watch_sessions w
     set watched_seconds = w.watched_seconds + credit,
         last_report_at = now(),
         tenths = w.tenths | new_bits
   where w.id = s.id;

  if credit > 0 or new_bits <> 0 then
    update public.video_stats st
       set watch_seconds = st.watch_seconds + credit,
           tenths = array(
             select st.tenths[k + 1] + case when (new_bits >> k) & 1 = 1 then 1 else 0 end
               from generate_series(0, 9) k order by k
           )
     where st.video_id = report_watch.video_id;
  end if;
  if credit > 0 then
    perform public.bump_activity(report_watch.video_id, now(), 0, 0, 0, credit);
  end if;

  threshold := case when vid.duration_seconds is not null and vid.duration_seconds < 20
                    then vid.duration_seconds / 2 else 10 end;
  if not s.counted and s.watched_seconds + credit >= threshold then
    update public.video_watch_sessions w set counted = true where w.id = s.id;
    insert into public.video_views (video_id, viewer_id, viewer_key, viewed_hour)
    values (report_watch.video_id, s.viewer_id, key, date_trunc('hour', now(), 'UTC'))
    on conflict on constraint video_views_once_per_hour do nothing;
    counted_now := found;
  end if;
  return counted_now;
end
$$;

revoke execute on function public.report_watch(uuid, uuid, numeric, integer, text) from public, anon;

comment on function public.report_watch(uuid, uuid, numeric, integer, text) is
  'A player''s progress report: credits watched seconds (capped by wall-clock time), marks the tenths played, counts a view after 10 s (half a clip under 20 s) once per viewer, video and hour; true when this report counted.';

-- Existing rows into the roll-ups ------------------------------------------------------

insert into public.video_activity (video_id, bucket, views, likes, comments)
select video_id, bucket, sum(views)::int, sum(likes)::int, sum(comments)::int
  from (
    select video_id, public.activity_bucket(created_at) as bucket, 1 as views, 0 as likes, 0 as comments from public.video_views
    union all
    select video_id, public.activity_bucket(created_at), 0, 1, 0 from public.video_likes
    union all
    select video_id, public.activity_bucket(created_at), 0, 0, 1 from public.comments
  ) e
 group by video_id, bucket;

insert into public.creator_activity (creator_id, bucket, views, likes, comments)
select v.creator_id, a.bucket, sum(a.views)::int, sum(a.likes)::int, sum(a.comments)::int
  from public.video_activity a join public.videos v on v.id = a.video_id
 group by v.creator_id, a.bucket;

update public.videos v set view_count = (select count(*) from public.video_views w where w.video_id = v.id)
 where v.view_count <> (select count(*) from public.video_views w where w.video_id = v.id);
