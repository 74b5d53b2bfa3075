-- Likes, comments, quotes and follows.
--
-- Everything hanging off a video is visible exactly when the video is: the policies
-- ask `exists (select 1 from public.videos ...)`, which the videos policies filter.
-- Counters on videos and quotes are kept exact by triggers.

-- AFTER INSERT OR DELETE trigger on a child table: adds or removes one from a
-- counter on its parent. Arguments: parent table, counter column, and the child's
-- column holding the parent id. SECURITY DEFINER because the caller (say, a learner
-- liking a video) may not update the parent; the parent's column guard lets it
-- through because it runs as the owner (public.is_trusted_caller()).
create function public.maintain_counter() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  child jsonb;
  delta integer;
begin
  if tg_op = 'INSERT' then
    child := to_jsonb(new);
    delta := 1;
  else
    child := to_jsonb(old);
    delta := -1;
  end if;
  execute format('update %s set %I = %I + $1 where id = $2', tg_argv[0]::regclass, tg_argv[1], tg_argv[1])
    using delta, (child ->> tg_argv[2])::uuid;
  return null;
end
$$;

revoke execute on function public.maintain_counter() from public, anon, authenticated;

-- Video likes ------------------------------------------------------------------------

create table public.video_likes (
  video_id uuid not null references public.videos (id) on delete cascade,
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (video_id, user_id)
);

comment on table public.video_likes is 'Who liked which video; videos.like_count follows it.';

create index video_likes_user_id_idx on public.video_likes (user_id, created_at desc);

create trigger video_likes_stamp_created_at before insert on public.video_likes
  for each row execute function public.stamp_created_at();

create trigger video_likes_count after insert or delete on public.video_likes
  for each row execute function public.maintain_counter('public.videos', 'like_count', 'video_id');

alter table public.video_likes enable row level security;

create policy "everyone sees the likes of videos they can see"
  on public.video_likes for select to anon, authenticated
  using (exists (select 1 from public.videos v where v.id = video_id));

create policy "users like videos they can see as themselves"
  on public.video_likes for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.videos v where v.id = video_id)
  );

create policy "users remove their own likes"
  on public.video_likes for delete to authenticated
  using (
    user_id = (select auth.uid())
    and exists (select 1 from public.videos v where v.id = video_id)
  );

-- Comments ---------------------------------------------------------------------------

create table public.comments (
  id uuid primary key default gen_random_uuid(),
  video_id uuid not null references public.videos (id) on delete cascade,
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  body text not null check (btrim(body) <> '' and char_length(body) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.comments is 'Comments on a video; videos.comment_count follows it.';

create index comments_video_id_idx on public.comments (video_id, created_at desc, id desc);
create index comments_user_id_idx on public.comments (user_id);

create trigger comments_stamp_created_at before insert on public.comments
  for each row execute function public.stamp_created_at();

create trigger comments_set_updated_at before update on public.comments
  for each row execute function public.set_updated_at();

create trigger comments_protect_columns before update on public.comments
  for each row execute function public.protect_columns('id', 'video_id', 'user_id', 'created_at');

create trigger comments_count after insert or delete on public.comments
  for each row execute function public.maintain_counter('public.videos', 'comment_count', 'video_id');

alter table public.comments enable row level security;

create policy "everyone reads the comments of videos they can see"
  on public.comments for select to anon, authenticated
  using (exists (select 1 from public.videos v where v.id = video_id));

create policy "users comment as themselves on videos they can see"
  on public.comments for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.videos v where v.id = video_id)
  );

create policy "users edit their own comments"
  on public.comments for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "authors, the video's creator and admins delete comments"
  on public.comments for delete to authenticated
  using (
    user_id = (select auth.uid())
    or exists (select 1 from public.videos v where v.id = video_id and v.creator_id = (select auth.uid()))
    or (select public.is_admin())
  );

-- Quotes -----------------------------------------------------------------------------

create table public.quotes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  video_id uuid not null references public.videos (id) on delete cascade,
  type text not null default 'text' check (type in ('text', 'video')),
  body text not null default '' check (char_length(body) <= 2000),
  response_source_path text check (starts_with(response_source_path, user_id::text || '/quotes/')),
  response_hls_path text,
  response_mp4_path text,
  response_status text check (response_status in ('processing', 'ready', 'failed')),
  response_status_message text check (char_length(response_status_message) <= 1000),
  like_count integer not null default 0 check (like_count >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint quotes_text_needs_body check (type <> 'text' or btrim(body) <> ''),
  constraint quotes_video_needs_file check (type <> 'video' or response_source_path is not null),
  constraint quotes_text_has_no_response check (
    type <> 'text'
    or num_nonnulls(response_source_path, response_hls_path, response_mp4_path, response_status) = 0
  )
);

comment on table public.quotes is
  'A user''s take on a video: text, or a video response transcoded by the media worker. videos.quote_count follows it.';
comment on column public.quotes.video_id is 'The quoted (original) video.';
comment on column public.quotes.response_source_path is 'Uploaded response: object name in bucket uploads, <user_id>/quotes/...';
comment on column public.quotes.response_hls_path is 'Object name in bucket media, quotes/<id>/...';

create index quotes_video_id_idx on public.quotes (video_id, created_at desc, id desc);
create index quotes_user_id_idx on public.quotes (user_id, created_at desc, id desc);

create trigger quotes_stamp_created_at before insert on public.quotes
  for each row execute function public.stamp_created_at();

create trigger quotes_set_updated_at before update on public.quotes
  for each row execute function public.set_updated_at();

create function public.prepare_quote_insert() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if public.is_trusted_caller() then
    return new;
  end if;
  if new.like_count <> 0
     or num_nonnulls(new.response_hls_path, new.response_mp4_path, new.response_status_message) > 0 then
    raise exception 'counters and media details of a quote are set by the server' using errcode = '42501';
  end if;
  new.response_status := case when new.type = 'video' then 'processing' end;
  return new;
end
$$;

create trigger quotes_prepare_insert before insert on public.quotes
  for each row execute function public.prepare_quote_insert();

create trigger quotes_protect_columns before update on public.quotes
  for each row execute function public.protect_columns(
    'id', 'user_id', 'video_id', 'type', 'created_at', 'response_source_path', 'response_hls_path',
    'response_mp4_path', 'response_status', 'response_status_message', 'like_count'
  );

create trigger quotes_count after insert or delete on public.quotes
  for each row execute function public.maintain_counter('public.videos', 'quote_count', 'video_id');

alter table public.quotes enable row level security;

create policy "everyone reads the quotes of videos they can see"
  on public.quotes for select to anon, authenticated
  using (exists (select 1 from public.videos v where v.id = video_id));

create policy "users quote videos they can see as themselves"
  on public.quotes for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.videos v where v.id = video_id)
  );

create policy "users edit their own quotes"
  on public.quotes for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "authors and admins delete quotes"
  on public.quotes for delete to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));

-- Quote likes ------------------------------------------------------------------------

create table public.quote_likes (
  quote_id uuid not null references public.quotes (id) on delete cascade,
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (quote_id, user_id)
);

comment on table public.quote_likes is 'Who liked which quote; quotes.like_count follows it.';

create index quote_likes_user_id_idx on public.quote_likes (user_id);

create trigger quote_likes_stamp_created_at before insert on public.quote_likes
  for each row execute function public.stamp_created_at();

create trigger quote_likes_count after insert or delete on public.quote_likes
  for each row execute function public.maintain_counter('public.quotes', 'like_count', 'quote_id');

alter table public.quote_likes enable row level security;

create policy "everyone sees the likes of quotes they can see"
  on public.quote_likes for select to anon, authenticated
  using (exists (select 1 from public.quotes q where q.id = quote_id));

create policy "users like quotes they can see as themselves"
  on public.quote_likes for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.quotes q where q.id = quote_id)
  );

create policy "users remove their own quote likes"
  on public.quote_likes for delete to authenticated
  using (
    user_id = (select auth.uid())
    and exists (select 1 from public.quotes q where q.id = quote_id)
  );

-- Follows ----------------------------------------------------------------------------

create table public.follows (
  follower_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  creator_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (follower_id, creator_id),
  constraint follows_not_self check (follower_id <> creator_id)
);

comment on table public.follows is 'Who follows which creator (or admin); public (creator pages show follower counts).';

create index follows_creator_id_idx on public.follows (creator_id);

create trigger follows_stamp_created_at before insert on public.follows
  for each row execute function public.stamp_created_at();

alter table public.follows enable row level security;

create policy "everyone sees follows"
  on public.follows for select to anon, authenticated
  using (true);

create policy "users follow creators and admins as themselves"
  on public.follows for insert to authenticated
  with check (
    follower_id = (select auth.uid())
    and exists (select 1 from public.profiles p where p.id = creator_id and p.role in ('creator', 'admin'))
  );

create policy "users unfollow as themselves"
  on public.follows for delete to authenticated
  using (follower_id = (select auth.uid()));
