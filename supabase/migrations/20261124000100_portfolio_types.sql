-- ADR 0012, finding 2(c): `portfolios` accepted `image/*`, so `image/svg+xml` (an
-- active document that runs script when opened) could be stored. Portfolios take
-- raster images only, like avatars and thumbnails, plus videos and documents.
update storage.buckets
   set allowed_mime_types = array[
     'video/*', 'image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf', 'application/msword',
     'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
   ]
 where id = 'portfolios';
