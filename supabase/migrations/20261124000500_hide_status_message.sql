-- ADR 0012, finding 8: make videos.status_message unreadable by API roles.
--
-- Why processing failed is for the owner and admins: the app reads it through
-- public.video_status_message(video_id), which answers them only
-- (docs/decisions/0012-exposure-decisions.md).
--
-- Row policies cannot hide a column, so API roles lose SELECT on it: they keep SELECT
-- on every other column (granted per column, listed from the catalogue; a later
-- migration adding a column to videos must grant it too).
revoke select on public.videos from anon, authenticated;
do $$
declare
  columns text;
begin
  select string_agg(quote_ident(attname), ', ' order by attnum) into columns
    from pg_attribute
   where attrelid = 'public.videos'::regclass and attnum > 0 and not attisdropped and attname <> 'status_message';
  execute format('grant select (%s) on public.videos to anon, authenticated', columns);
end
$$;
