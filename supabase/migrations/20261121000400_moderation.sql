-- Reports and feedback: written by signed-in users, handled by admins.

-- Reports ----------------------------------------------------------------------------

create table public.reports (
  id uuid primary key default gen_random_uuid(),
  reporter_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  content_type text not null check (content_type in ('video', 'quote', 'comment')),
  content_id uuid not null,
  reason text not null check (reason in ('inappropriate', 'copyright', 'misinformation', 'harmful', 'spam', 'other')),
  details text not null default '' check (char_length(details) <= 2000),
  status text not null default 'pending' check (status in ('pending', 'reviewed', 'dismissed', 'removed')),
  reviewed_by uuid references public.profiles (id) on delete set null,
  reviewed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.reports is
  'A signed-in user''s report of a video, quote or comment. Seen by the reporter and admins; setting status ''removed'' deletes the content.';
comment on column public.reports.content_id is 'Id of the reported row in videos, quotes or comments (per content_type); kept after the content is gone.';

-- One open report per reporter and content: a second click is a duplicate (23505).
create unique index reports_one_pending_idx on public.reports (reporter_id, content_type, content_id)
  where status = 'pending';
create index reports_reporter_id_idx on public.reports (reporter_id, created_at desc);
create index reports_status_idx on public.reports (status, created_at desc);
create index reports_content_idx on public.reports (content_type, content_id);
create index reports_reviewed_by_idx on public.reports (reviewed_by);

create trigger reports_stamp_created_at before insert on public.reports
  for each row execute function public.stamp_created_at();

create trigger reports_set_updated_at before update on public.reports
  for each row execute function public.set_updated_at();

-- The reviewer and time are recorded, not typed in.
create function public.stamp_report_review() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.status = 'pending' then
    new.reviewed_by := null;
    new.reviewed_at := null;
  else
    new.reviewed_by := (select p.id from public.profiles p where p.id = auth.uid());
    new.reviewed_at := now();
  end if;
  return new;
end
$$;

create trigger reports_stamp_review before update of status on public.reports
  for each row when (new.status is distinct from old.status)
  execute function public.stamp_report_review();

-- 'removed' means removed: the content goes (as the admin, through the delete
-- policies) and every other open report about it is closed the same way.
create function public.remove_reported_content() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  case new.content_type
    when 'video' then delete from public.videos where id = new.content_id;
    when 'quote' then delete from public.quotes where id = new.content_id;
    when 'comment' then delete from public.comments where id = new.content_id;
  end case;
  update public.reports set status = 'removed'
   where content_type = new.content_type and content_id = new.content_id and status = 'pending';
  return null;
end
$$;

create trigger reports_remove_content after update of status on public.reports
  for each row when (new.status = 'removed' and old.status <> 'removed')
  execute function public.remove_reported_content();

alter table public.reports enable row level security;

create policy "reporters and admins read reports"
  on public.reports for select to authenticated
  using (reporter_id = (select auth.uid()) or (select public.is_admin()));

create policy "signed-in users report content they can see"
  on public.reports for insert to authenticated
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
  );

create policy "admins handle reports"
  on public.reports for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

create policy "admins delete reports"
  on public.reports for delete to authenticated
  using ((select public.is_admin()));

-- Feedback ---------------------------------------------------------------------------

create table public.feedback (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  liked boolean not null,
  usage text not null check (btrim(usage) <> '' and char_length(usage) <= 2000),
  recommendations text not null check (btrim(recommendations) <> '' and char_length(recommendations) <= 2000),
  created_at timestamptz not null default now()
);

comment on table public.feedback is 'Product feedback from the floating panel: written by signed-in users, read by admins only.';

create index feedback_user_id_idx on public.feedback (user_id);
create index feedback_created_at_idx on public.feedback (created_at desc);

create trigger feedback_stamp_created_at before insert on public.feedback
  for each row execute function public.stamp_created_at();

alter table public.feedback enable row level security;

create policy "admins read feedback"
  on public.feedback for select to authenticated
  using ((select public.is_admin()));

create policy "signed-in users send feedback as themselves"
  on public.feedback for insert to authenticated
  with check (user_id = (select auth.uid()));

create policy "admins delete feedback"
  on public.feedback for delete to authenticated
  using ((select public.is_admin()));
