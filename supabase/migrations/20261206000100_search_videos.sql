-- Ranked full-text search of the feed and sparks lists (ADR 0023).
--
-- Under row-level security Postgres will not use the GIN index on videos.search
-- for a caller's query: `@@` is not leakproof, so it may not run before the
-- policy's checks, and every search scanned all ready videos of one type. This
-- function runs as its owner (no row-level security), so the index finds the
-- matches, and applies the lists' visibility rule itself — never more than the
-- videos select policies allow:
--   ready videos of the type, public, or the caller's own (private ones);
-- which is the policies' rule for visitors and users, and narrower for admins
-- (other people's private videos are for moderation, not for their lists).
-- It returns ids, ranks and times only; the app then reads the rows themselves
-- as the caller, so row-level security and the column grants still decide
-- what is shown.
--
-- The search text is split by Postgres's own 'simple' parser (the one that
-- built videos.search) and every word becomes a quoted prefix term joined with
-- AND, so no text can inject tsquery syntax. No words (or only ones the parser
-- drops): no rows.

create function public.search_videos(search text, video_type text, category text default null)
  returns table (id uuid, rank real, created_at timestamptz)
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  terms tsquery;
  viewer uuid := auth.uid();
begin
  select to_tsquery('simple', string_agg(
           '''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || ''':*', ' & '
         ))
    into terms
    from unnest(tsvector_to_array(to_tsvector('simple', left(coalesce(search_videos.search, ''), 200)))) as lexeme;
  if terms is null then
    return;
  end if;
  return query
    select v.id, ts_rank(v.search, terms), v.created_at
      from public.videos v
     where v.search @@ terms
       and v.status = 'ready'
       and v.type = video_type
       and (v.is_public or (viewer is not null and v.creator_id = viewer))
       and (search_videos.category is null or v.category_id = search_videos.category);
end
$$;

revoke execute on function public.search_videos(text, text, text) from public;
grant execute on function public.search_videos(text, text, text) to anon, authenticated, service_role;

comment on function public.search_videos(text, text, text) is
  'Ranked search of the feed/sparks lists: ready videos of the type that are public or the caller''s own, matching every word of search as a prefix; id, ts_rank and created_at. Uses videos_search_idx (security definer, same visibility as the lists).';
