-- ADR 0012, finding 8 (see docs/decisions/0012-exposure-decisions.md).

-- 1. videos.status_message explains a failed upload to its creator ("the file is not
-- a video", ffmpeg's reason); it is nobody else's business. Its creator and admins
-- read it through public.video_status_message(); anyone else gets null. Hiding the
-- column itself from API roles (supabase/pending/hide_status_message.sql) follows in
-- the same change as the app's getVideo(), which still selects it as the caller.
create function public.video_status_message(video_id uuid) returns text
  language sql stable security definer
  set search_path = ''
as $$
  select v.status_message
    from public.videos v
   where v.id = video_id
     and (v.creator_id = (select auth.uid()) or (select public.is_admin()))
$$;

revoke execute on function public.video_status_message(uuid) from public, anon;
grant execute on function public.video_status_message(uuid) to authenticated, service_role;

comment on function public.video_status_message(uuid) is
  'The status message of a video for its creator or an admin; null for anyone else (the column is not readable by API roles).';

-- 2. A per-user storage quota: the bytes of all objects a user owns, in every bucket,
-- may not pass public.storage_quota_bytes() (5 GiB: fifty 100 MiB lectures, their
-- thumbnails and a portfolio). Files the media worker writes (service role, no owner)
-- do not count. Checked on insert and on any change of size or owner, so it holds
-- with Supabase Storage too (it writes these rows); SQLSTATE 53400.
create function public.storage_quota_bytes() returns bigint
  language sql immutable
  set search_path = ''
as $$ select 5368709120::bigint $$;

comment on function public.storage_quota_bytes() is 'Per-user storage quota in bytes (5 GiB), enforced on storage.objects.';

create function public.enforce_storage_quota() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_owner text := coalesce(new.owner_id, new.owner::text);
  new_size bigint := coalesce((new.metadata ->> 'size')::bigint, (new.metadata ->> 'contentLength')::bigint, 0);
  used bigint;
begin
  if v_owner is null or new_size = 0 then
    return new;
  end if;
  -- One owner's writes wait for each other, so two uploads cannot both slip under the limit.
  perform pg_advisory_xact_lock(hashtext('storage quota ' || v_owner));
  -- The object being replaced (same bucket and name) does not count twice.
  select coalesce(sum(coalesce((o.metadata ->> 'size')::bigint, 0)), 0) into used
    from storage.objects o
   where coalesce(o.owner_id, o.owner::text) = v_owner
     and not (o.bucket_id = new.bucket_id and o.name = new.name)
     and o.id <> new.id;
  if used + new_size > public.storage_quota_bytes() then
    raise exception 'Storage quota exceeded: your files may take at most % MiB (% MiB used)',
      public.storage_quota_bytes() / 1048576, used / 1048576
      using errcode = '53400';
  end if;
  return new;
end
$$;

revoke execute on function public.enforce_storage_quota() from public, anon, authenticated;

create trigger enforce_storage_quota before insert or update of metadata, owner, owner_id on storage.objects
  for each row execute function public.enforce_storage_quota();
