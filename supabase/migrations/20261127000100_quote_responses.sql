-- ADR 0014 (quotes): a video response is the author's business until it plays,
-- a quote may point at a moment of the original, and a video response gets a poster.
--
-- 1. Visibility: a video response still processing (or failed) is seen by its author
--    and admins only; everyone else sees it once the media worker marked it ready.
--    Text quotes are seen with their video, as before. (Storage follows: media objects
--    of a quote are readable when the quote is, public.can_read_media.)
-- 2. moment_seconds: where in the original the quote points (View Original opens there).
-- 3. response_poster_path: the worker's poster of a video response (bucket media,
--    quotes/<id>/poster.jpg), server-owned like the other media columns.

alter table public.quotes
  add column moment_seconds numeric(9, 3) check (moment_seconds >= 0 and moment_seconds <= 86400),
  add column response_poster_path text,
  add constraint quotes_text_has_no_poster check (type <> 'text' or response_poster_path is null);

comment on column public.quotes.moment_seconds is
  'The moment of the original video the quote is about, in seconds (null: the whole video).';
comment on column public.quotes.response_poster_path is 'Object name in bucket media, quotes/<id>/poster.jpg (set by the worker).';

-- Who reads which quote. anon cannot call public.is_admin(), hence one policy per role.
drop policy "everyone reads the quotes of videos they can see" on public.quotes;

create policy "visitors read text quotes and ready responses of videos they can see"
  on public.quotes for select to anon
  using (
    (type = 'text' or response_status = 'ready')
    and exists (select 1 from public.videos v where v.id = video_id)
  );

create policy "users read quotes of videos they can see, responses once ready or their own"
  on public.quotes for select to authenticated
  using (
    (type = 'text' or response_status = 'ready' or user_id = (select auth.uid()) or (select public.is_admin()))
    and exists (select 1 from public.videos v where v.id = video_id)
  );

-- The poster is the server's, like the renditions: refused on insert, kept on update.
create or replace function public.prepare_quote_insert() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if public.is_trusted_caller() then
    return new;
  end if;
  if new.like_count <> 0
     or num_nonnulls(
       new.response_hls_path, new.response_mp4_path, new.response_poster_path, new.response_status_message
     ) > 0 then
    raise exception 'counters and media details of a quote are set by the server' using errcode = '42501';
  end if;
  new.response_status := case when new.type = 'video' then 'processing' end;
  return new;
end
$$;

drop trigger quotes_protect_columns on public.quotes;
create trigger quotes_protect_columns before update on public.quotes
  for each row execute function public.protect_columns(
    'id', 'user_id', 'video_id', 'type', 'created_at', 'response_source_path', 'response_hls_path',
    'response_mp4_path', 'response_poster_path', 'response_status', 'response_status_message', 'like_count'
  );
