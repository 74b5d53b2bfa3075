-- Storage buckets and who may read and write which objects.
--
-- Folder conventions (the first folder decides):
--   uploads     <user_id>/videos/...   originals of videos (verified creators, admins)
--               <user_id>/quotes/...   originals of video quotes (any signed-in user)
--   media       videos/<video_id>/...  worker output: HLS playlists and segments, MP4, poster
--               quotes/<quote_id>/...  the same for video quotes
--   thumbnails  <user_id>/...          video thumbnails (verified creators, admins, the worker);
--                                      readable with their video, by the owner and by admins
--   avatars     <user_id>/...          profile pictures
--   portfolios  <user_id>/...          creator portfolios (owner and admins read them)
-- Only the service role (which bypasses RLS) writes to media.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('uploads', 'uploads', false, 104857600, array['video/*']),
  ('media', 'media', false, null, array[
    'application/vnd.apple.mpegurl', 'application/x-mpegurl', 'video/mp2t', 'video/mp4',
    'video/iso.segment', 'image/jpeg'
  ]),
  ('thumbnails', 'thumbnails', true, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  ('avatars', 'avatars', true, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  ('portfolios', 'portfolios', false, 52428800, array[
    'video/*', 'image/*', 'application/pdf', 'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
  ])
on conflict (id) do update set
  name = excluded.name,
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- A media object is readable when the video or quote its path names is visible to
-- the caller. SECURITY INVOKER on purpose: the videos and quotes policies decide.
create function public.can_read_media(object_name text) returns boolean
  language sql stable
  set search_path = ''
as $$
  select case
    when (storage.foldername(object_name))[2] !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then false
    when (storage.foldername(object_name))[1] = 'videos'
      then exists (select 1 from public.videos v where v.id = ((storage.foldername(object_name))[2])::uuid)
    when (storage.foldername(object_name))[1] = 'quotes'
      then exists (select 1 from public.quotes q where q.id = ((storage.foldername(object_name))[2])::uuid)
    else false
  end
$$;

comment on function public.can_read_media(text) is
  'Whether the caller may read an object of bucket media: videos/<id>/... or quotes/<id>/... of a video or quote they can see.';

-- What the caller may create: always inside their own folder; videos and thumbnails
-- only once verified (or as an admin).
create function public.can_write_object(bucket_id text, object_name text) returns boolean
  language sql stable
  set search_path = ''
as $$
  select (storage.foldername(object_name))[1] = auth.uid()::text
     and case bucket_id
       when 'uploads' then
         (storage.foldername(object_name))[2] = 'quotes'
         or ((storage.foldername(object_name))[2] = 'videos' and (public.is_verified_creator() or public.is_admin()))
       when 'thumbnails' then public.is_verified_creator() or public.is_admin()
       when 'avatars' then true
       when 'portfolios' then true
       else false
     end
$$;

revoke execute on function public.can_write_object(text, text) from public, anon;

comment on function public.can_write_object(text, text) is
  'Whether the caller may create the object: own folder only; uploads/<uid>/videos and thumbnails need a verified creator or an admin.';

-- One policy per command and role (the advisor flags several permissive ones).
-- Thumbnails are listed and read like their video (a private video's stay hidden;
-- the bucket is public only so that known keys have CDN URLs). Admins also read every
-- user's uploads, thumbnails and portfolios (creator review, moderation).
create policy "everyone reads avatars and files of visible videos"
  on storage.objects for select to anon
  using (
    bucket_id = 'avatars'
    or (bucket_id = 'thumbnails' and exists (select 1 from public.videos v where v.thumbnail_path = objects.name))
    or (bucket_id = 'media' and public.can_read_media(name))
  );

create policy "users read avatars, files of visible videos and their own files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'avatars'
    or (bucket_id = 'thumbnails' and exists (select 1 from public.videos v where v.thumbnail_path = objects.name))
    or (bucket_id = 'media' and public.can_read_media(name))
    or (
      bucket_id in ('uploads', 'thumbnails', 'portfolios')
      and ((storage.foldername(name))[1] = (select auth.uid())::text or (select public.is_admin()))
    )
  );

create policy "users upload into their own folder"
  on storage.objects for insert to authenticated
  with check (public.can_write_object(bucket_id, name));

create policy "users replace files in their own folder"
  on storage.objects for update to authenticated
  using (
    bucket_id in ('uploads', 'thumbnails', 'avatars', 'portfolios')
    and (storage.foldername(name))[1] = (select auth.uid())::text
  )
  with check (public.can_write_object(bucket_id, name));

create policy "users delete files in their own folder, admins any user file"
  on storage.objects for delete to authenticated
  using (
    bucket_id in ('uploads', 'thumbnails', 'avatars', 'portfolios')
    and ((storage.foldername(name))[1] = (select auth.uid())::text or (select public.is_admin()))
  );
