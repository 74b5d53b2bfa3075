-- ADR 0019: search inside what is said.
--
-- public.search_captions finds the videos whose captions contain every word of a search
-- (each word as a prefix, the 'simple' parser that built caption_cues.search) and returns,
-- per video, the best-matching cue with its start time, so the feed and sparks search can
-- rank caption hits with title hits and open the video at that moment (?t=).
--
-- Why security definer: under row-level security Postgres will not use the GIN index on
-- caption_cues.search for a caller's query (`@@` is not leakproof, so it may not run before
-- the policies' checks), and a search would scan every cue. Running as the owner, the
-- function uses the index and applies the videos select policies itself — the same rule,
-- written once more here and proved role by role in supabase/tests/250-caption-search.sql:
-- signed-in users see public videos and their own; admins all (the anon branch, public
-- videos, is kept for the service role's and future callers' sake, but visitors may not
-- call it: no definer function is open to anon, 900-schema-lints.sql). On
-- top of the policies, only ready videos are searched (a processing or failed video has
-- nothing to open at a moment). Nothing is returned that the caller could not read from
-- caption_cues directly. See docs/decisions/0022-caption-search.md.

create function public.search_captions(
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
  language plpgsql stable security definer
  set search_path = ''
as $$
#variable_conflict use_column
declare
  q tsquery;
  uid uuid := (select auth.uid());
  admin boolean := uid is not null and public.is_admin();
  size integer := least(greatest(coalesce(max_videos, 200), 1), 500);
begin
  -- Every word as a quoted prefix term, built from Postgres's own lexemes: no input can
  -- inject tsquery syntax (the same construction as the feed's title search).
  select to_tsquery('simple'::regconfig, string_agg(
           '''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || ''':*', ' & '))
    into q
    from unnest(tsvector_to_array(to_tsvector('simple'::regconfig, left(coalesce(words, ''), 200)))) as lexeme;
  if q is null then
    return;
  end if;
  return query
    select h.video_id, h.track_id, h.language, h.start_ms, h.end_ms, h.body, h.cue_rank
      from (
        select distinct on (c.video_id)
               c.video_id, c.track_id, t.language, c.start_ms, c.end_ms, c.body,
               ts_rank(c.search, q) as cue_rank
          from public.caption_cues c
          join public.caption_tracks t on t.id = c.track_id
          join public.videos v on v.id = c.video_id
         where c.search @@ q
           and v.status = 'ready'
           and (search_captions.video_type is null or v.type = search_captions.video_type)
           -- The videos select policies: anon `is_public`; authenticated
           -- `is_public or creator_id = auth.uid() or is_admin()`.
           and (v.is_public or v.creator_id = uid or admin)
         order by c.video_id, ts_rank(c.search, q) desc, c.start_ms, c.seq
      ) h
     order by h.cue_rank desc, h.video_id
     limit size;
end
$$;

revoke execute on function public.search_captions(text, text, integer) from public, anon;
grant execute on function public.search_captions(text, text, integer) to authenticated, service_role;

comment on function public.search_captions(text, text, integer) is
  'Videos the caller can see (ready ones) whose captions contain every word of a search (as prefixes): per video the best-matching cue, its start and rank, best first. Security definer so the GIN index serves it; applies the videos select policies itself.';
