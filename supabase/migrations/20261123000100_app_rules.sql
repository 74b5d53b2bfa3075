-- Who may delete what, written once: the delete policies call these functions, and
-- the app asks the same functions to decide whether to offer a Delete control, so
-- the button and the rule cannot disagree (docs/decisions/0011-app-conventions.md).
-- Security invoker and plain SQL, so the planner inlines them into the policies and
-- `(select auth.uid())` still runs once per statement.

create function public.can_delete_video(creator_id uuid) returns boolean
  language sql stable
  set search_path = ''
as $$
  select can_delete_video.creator_id = (select auth.uid()) or (select public.is_admin())
$$;

create function public.can_delete_quote(author_id uuid) returns boolean
  language sql stable
  set search_path = ''
as $$
  select can_delete_quote.author_id = (select auth.uid()) or (select public.is_admin())
$$;

create function public.can_delete_comment(author_id uuid, video_id uuid) returns boolean
  language sql stable
  set search_path = ''
as $$
  select can_delete_comment.author_id = (select auth.uid())
      or exists (
        select 1 from public.videos v
         where v.id = can_delete_comment.video_id and v.creator_id = (select auth.uid())
      )
      or (select public.is_admin())
$$;

-- Visitors delete nothing; the functions answer false for them anyway.
revoke execute on function public.can_delete_video(uuid) from public, anon;
revoke execute on function public.can_delete_quote(uuid) from public, anon;
revoke execute on function public.can_delete_comment(uuid, uuid) from public, anon;

comment on function public.can_delete_video(uuid) is 'True when the caller owns a video of this creator or is an admin: the videos delete rule.';
comment on function public.can_delete_quote(uuid) is 'True when the caller wrote the quote or is an admin: the quotes delete rule.';
comment on function public.can_delete_comment(uuid, uuid) is
  'True when the caller wrote the comment, created its video, or is an admin: the comments delete rule.';

alter policy "creators delete their own videos and admins delete any" on public.videos
  using (public.can_delete_video(creator_id));

alter policy "authors and admins delete quotes" on public.quotes
  using (public.can_delete_quote(user_id));

alter policy "authors, the video's creator and admins delete comments" on public.comments
  using (public.can_delete_comment(user_id, video_id));

-- Whether the caller's session is still live: signing out, a password change that
-- ends other sessions, and deleting the user all remove the row in auth.sessions, and
-- the app asks on every request so an ended session's unexpired token opens nothing.
-- Security definer: API roles may not read auth.sessions.
create function public.session_is_active() returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select 1 from auth.sessions s
     where s.id = nullif((select auth.jwt()) ->> 'session_id', '')::uuid
       and s.user_id = (select auth.uid())
       and (s.not_after is null or s.not_after > now())
  )
$$;

revoke execute on function public.session_is_active() from public, anon;

comment on function public.session_is_active() is
  'True when the caller''s token belongs to a session that still exists (not signed out, user not deleted).';
