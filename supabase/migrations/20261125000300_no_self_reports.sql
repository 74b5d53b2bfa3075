-- ADR 0018: nobody reports their own video, quote or comment. The app hides
-- the report control on one's own content; Postgres refuses the report anyway (the
-- insert policy), whatever path it took.

-- True when the caller made this content (the video's creator, the quote's or the
-- comment's author). Security invoker, plain SQL: it sees what the caller sees, and
-- the policy check that already required the content to be visible stays the same.
create function public.is_own_content(content_type text, content_id uuid) returns boolean
  language sql stable
  set search_path = ''
as $$
  select case is_own_content.content_type
    when 'video' then exists (
      select 1 from public.videos v where v.id = is_own_content.content_id and v.creator_id = (select auth.uid()))
    when 'quote' then exists (
      select 1 from public.quotes q where q.id = is_own_content.content_id and q.user_id = (select auth.uid()))
    when 'comment' then exists (
      select 1 from public.comments c where c.id = is_own_content.content_id and c.user_id = (select auth.uid()))
    else false
  end
$$;

revoke execute on function public.is_own_content(text, uuid) from public, anon;

comment on function public.is_own_content(text, uuid) is
  'True when the caller made this video, quote or comment: the reports insert rule (nobody reports their own content).';

alter policy "signed-in users report content they can see" on public.reports
  with check (
    reporter_id = (select auth.uid())
    and status = 'pending'
    and reviewed_by is null
    and reviewed_at is null
    and case content_type
      when 'video' then exists (select 1 from public.videos v where v.id = content_id)
      when 'quote' then exists (select 1 from public.quotes q where q.id = content_id)
      when 'comment' then exists (select 1 from public.comments c where c.id = content_id)
      else false
    end
    and not public.is_own_content(content_type, content_id)
  );
