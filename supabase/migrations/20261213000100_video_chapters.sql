-- Chapters of a video (docs/decisions/0042-chapters.md).
--
-- A video's chapters are one jsonb array on the video row, [{"start": 0, "title": "Intro"}, …]:
-- the list is only ever read and replaced whole, and its rules are about the whole list
-- (how many, the first one, the gaps), which one CHECK on one value states exactly and
-- a replacement passes or fails at once. Who reads and who writes them is the videos
-- policies' answer: whoever can see the video reads them; its creator and admins change them.
--
-- The rules (the same as app/lib/schemas/chapters.ts): none, or 3 to 100 chapters; each an
-- object of exactly a whole number of seconds `start` (0 to 86 400) and a `title` (1 to 100
-- characters, no surrounding spaces, no control characters); the first at 0; each at least
-- 10 seconds after the one before. The last one must also last 10 seconds: checked against
-- the duration when a person writes the chapters and the duration is known (the trigger below).

create function public.chapters_are_valid(chapters jsonb) returns boolean
  language plpgsql immutable
  set search_path = ''
as $$
declare
  item jsonb;
  start numeric;
  title text;
  previous numeric := null;
  total integer;
begin
  if chapters is null or jsonb_typeof(chapters) <> 'array' then
    return false;
  end if;
  total := jsonb_array_length(chapters);
  if total = 0 then
    return true;
  end if;
  if total < 3 or total > 100 then
    return false;
  end if;
  for item in select value from jsonb_array_elements(chapters) loop
    if jsonb_typeof(item) <> 'object'
       or (select count(*) from jsonb_object_keys(item)) <> 2
       or jsonb_typeof(item -> 'start') is distinct from 'number'
       or jsonb_typeof(item -> 'title') is distinct from 'string' then
      return false;
    end if;
    start := (item ->> 'start')::numeric;
    title := item ->> 'title';
    if start <> trunc(start) or start < 0 or start > 86400 then
      return false;
    end if;
    if title = '' or title <> btrim(title) or char_length(title) > 100 or title ~ '[[:cntrl:]]' then
      return false;
    end if;
    if previous is null then
      if start <> 0 then
        return false;
      end if;
    elsif start < previous + 10 then
      return false;
    end if;
    previous := start;
  end loop;
  return true;
end
$$;

comment on function public.chapters_are_valid(jsonb) is
  'The chapter rules of public.videos.chapters: none, or 3 to 100 {start, title} objects, the first at 0, each at least 10 s after the one before.';

alter table public.videos
  add column chapters jsonb not null default '[]'::jsonb
  constraint videos_chapters_valid check (public.chapters_are_valid(chapters));

comment on column public.videos.chapters is
  'The chapters, [{"start": seconds, "title": text}] in time order; [] for none (public.chapters_are_valid, ADR 0042).';

-- Columns of videos are granted one by one (20261124000500_hide_status_message.sql).
grant select (chapters) on public.videos to anon, authenticated;

-- The last chapter lasts 10 seconds too, when the video's length is known as the chapters are written.
-- (The media worker measures the length after an upload: chapters written before are checked on the
-- gaps only, and pages show no chapter past the end.)
create function public.check_chapters_fit() returns trigger
  language plpgsql
  set search_path = ''
as $$
declare
  last_start numeric;
begin
  if public.is_trusted_caller() or new.duration_seconds is null
     or jsonb_typeof(new.chapters) is distinct from 'array' or jsonb_array_length(new.chapters) = 0 then
    -- (A value that is not a list is the CHECK's to refuse.)
    return new;
  end if;
  last_start := (new.chapters -> -1 ->> 'start')::numeric;
  if last_start > new.duration_seconds - 10 then
    raise exception 'the last chapter must start at least 10 seconds before the video ends'
      using errcode = 'check_violation', constraint = 'videos_chapters_fit';
  end if;
  return new;
end
$$;

revoke execute on function public.check_chapters_fit() from public, anon, authenticated;

create trigger videos_check_chapters_fit before insert or update of chapters on public.videos
  for each row execute function public.check_chapters_fit();
