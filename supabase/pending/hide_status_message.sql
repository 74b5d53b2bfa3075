-- Issue 8, finding 8: make videos.status_message unreadable by API roles.
--
-- NOT YET A MIGRATION: app/server/videos.server.ts getVideo() selects
-- videos.status_message as the caller, which this would turn into a 42501 for every
-- video page. Move this file to supabase/migrations/20261124000500_hide_status_message.sql
-- in the same commit that makes the app read
--   public.video_status_message(videos.id) as status_message
-- instead (see docs/decisions/0012-exposure-decisions.md), then run `npm run db:types`
-- and add the pgTAP cases marked in supabase/tests/140-exposure.sql.
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
