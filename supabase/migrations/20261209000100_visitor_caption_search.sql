-- ADR 0019: visitors' searches look inside what is said too (ADR 0026 §4).
--
-- public.search_captions (20261205000100) is closed to anon, so a signed-out visitor's feed
-- and sparks search matched titles and descriptions only. This is its visitors' twin: the
-- same search (it calls search_captions as its owner, so the GIN index on the cues still
-- serves it), narrowed to what the anon select policies show — public videos — and, as
-- search_captions already does, to ready ones. It returns nothing a visitor could not read
-- from caption_cues, caption_tracks and videos directly (their anon policies: the cues of
-- public videos). Only anon may call it; signed-in callers keep search_captions, whose rule
-- also covers their own private videos. Proved in supabase/tests/285-visitor-caption-search.sql;
-- allow-listed in 900-schema-lints.sql beside search_videos.

create function public.search_public_captions(
  words text,
  video_type text default null,
  max_videos integer default 200
) returns table (
  video_id uuid,
  track_id uuid,
  language text,
  start_ms integer,
  end_ms integer,
  body text,
  rank real
)
  language sql stable security definer
  set search_path = ''
as $$
  select s.video_id, s.track_id, s.language, s.start_ms, s.end_ms, s.body, s.rank
    from public.search_captions(words, video_type, max_videos) s
    join public.videos v on v.id = s.video_id
   where v.is_public
     and v.status = 'ready'
$$;

revoke execute on function public.search_public_captions(text, text, integer) from public, authenticated;
grant execute on function public.search_public_captions(text, text, integer) to anon, service_role;

comment on function public.search_public_captions(text, text, integer) is
  'Visitors'' caption search: search_captions narrowed to public ready videos (the anon videos policy). Security definer so the GIN index serves it.';
