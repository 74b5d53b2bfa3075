-- Courses (ADR 0048): a creator's lessons in order, and the learners who enrolled.
--
-- * A course belongs to one verified creator: a title, a description, a category, an
--   optional cover image (bucket thumbnails, <creator_id>/courses/...), and whether it is
--   published. Unpublished courses are seen only by their creator and admins.
-- * Its lessons are the owner's own public videos and sparks, each once, in an order
--   (position 0, 1, 2 ...). A lesson may carry a section title: consecutive lessons with
--   the same section title are shown under one heading.
-- * Postgres refuses a lesson that is another creator's video or a private one.
-- * Admins may unpublish (never publish, never edit) any course, and delete it.
-- * A learner enrolls in a published course; enrolments are private to the learner.
--   The creator sees counts only, through functions that aggregate.
-- * Deleting the creator, the course, a video or the learner removes what hangs on it.

create table public.courses (
  id uuid primary key default gen_random_uuid(),
  creator_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  title text not null check (btrim(title) <> '' and char_length(title) <= 200),
  description text not null default '' check (char_length(description) <= 5000),
  category_id text not null default 'other' references public.categories (id),
  cover_path text check (starts_with(cover_path, creator_id::text || '/courses/')),
  is_published boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.courses is
  'A creator''s ordered path of lessons (their own public videos and sparks). Unpublished courses are seen only by their creator and admins.';
comment on column public.courses.cover_path is 'Object name in bucket thumbnails, <creator_id>/courses/...';

-- The creator's Courses tab and dashboard (their courses, newest first).
create index courses_creator_created_idx on public.courses (creator_id, created_at desc);
-- /explore and search: published courses, newest first.
create index courses_published_created_idx on public.courses (created_at desc) where is_published;
create index courses_category_id_idx on public.courses (category_id);

create table public.course_lessons (
  course_id uuid not null references public.courses (id) on delete cascade,
  video_id uuid not null references public.videos (id) on delete cascade,
  position integer not null check (position >= 0),
  section_title text check (btrim(section_title) <> '' and char_length(section_title) <= 120),
  primary key (course_id, video_id),
  -- Reordering swaps positions inside one transaction.
  constraint course_lessons_position_unique unique (course_id, position) deferrable initially deferred
);

comment on table public.course_lessons is
  'The lessons of a course in order. Each is a public video or spark of the course''s creator, at most once per course.';
comment on column public.course_lessons.section_title is
  'Optional section heading; consecutive lessons with the same title are grouped under it.';

-- "Which courses is this video in" (the player's Lesson 3 of 10), and the video's side of the foreign key.
create index course_lessons_video_id_idx on public.course_lessons (video_id);

create table public.course_enrollments (
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, course_id)
);

comment on table public.course_enrollments is
  'A learner''s enrolment in a course (the profile''s My learning tab). Private to the learner; creators see counts only.';

-- My learning (the learner's enrolments, latest first) is served by the primary key's
-- prefix plus a sort; the course's side of the foreign key and the funnel use this one.
create index course_enrollments_course_id_idx on public.course_enrollments (course_id, user_id);

-- Rules -------------------------------------------------------------------------------

-- A lesson must be a public video of the course's creator. SECURITY DEFINER: the check
-- reads both rows whatever the caller may see, so an admin or a trigger cannot slip in
-- another creator's video either.
create function public.check_course_lesson() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if not exists (
    select 1
      from public.courses c
      join public.videos v on v.creator_id = c.creator_id
     where c.id = new.course_id and v.id = new.video_id and v.is_public
  ) then
    raise exception 'a course''s lessons are its creator''s own public videos'
      using errcode = '23514';
  end if;
  return new;
end;
$$;

revoke execute on function public.check_course_lesson() from public, anon, authenticated;

create trigger course_lessons_check before insert or update of course_id, video_id on public.course_lessons
  for each row execute function public.check_course_lesson();

-- The category must be one the creator may use (as for videos); an admin who is not the
-- owner may only unpublish. SECURITY INVOKER: public.is_trusted_caller() reads current_user.
create function public.check_course_change() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.creator_id is distinct from old.creator_id then
    raise exception 'a course''s creator never changes' using errcode = '42501';
  end if;
  if tg_op = 'UPDATE' and old.creator_id is distinct from (select auth.uid())
     and not (select public.is_trusted_caller()) then
    if (new.title, new.description, new.category_id, new.cover_path)
         is distinct from (old.title, old.description, old.category_id, old.cover_path)
       or (new.is_published and not old.is_published) then
      raise exception 'admins may only unpublish a course' using errcode = '42501';
    end if;
  end if;
  if (tg_op = 'INSERT' or new.category_id is distinct from old.category_id)
     and new.creator_id = (select auth.uid())
     and not public.can_use_category(new.category_id) then
    raise exception 'category not available to this creator' using errcode = '42501';
  end if;
  new.updated_at := now();
  return new;
end;
$$;

revoke execute on function public.check_course_change() from public, anon, authenticated;

create trigger courses_check_change before insert or update on public.courses
  for each row execute function public.check_course_change();

create trigger courses_stamp_created_at before insert on public.courses
  for each row execute function public.stamp_created_at();

-- Row-level security --------------------------------------------------------------------

alter table public.courses enable row level security;
alter table public.course_lessons enable row level security;
alter table public.course_enrollments enable row level security;

create policy "anyone sees published courses"
  on public.courses for select to anon
  using (is_published);

create policy "users see published courses, creators their own, admins all"
  on public.courses for select to authenticated
  using (is_published or creator_id = (select auth.uid()) or (select public.is_admin()));

create policy "verified creators create their own courses"
  on public.courses for insert to authenticated
  with check (creator_id = (select auth.uid()) and (select public.is_verified_creator()));

create policy "creators change their own courses and admins unpublish any"
  on public.courses for update to authenticated
  using (creator_id = (select auth.uid()) or (select public.is_admin()))
  with check (creator_id = (select auth.uid()) or (select public.is_admin()));

create policy "creators delete their own courses and admins delete any"
  on public.courses for delete to authenticated
  using (creator_id = (select auth.uid()) or (select public.is_admin()));

-- A lesson is seen when its course is (the courses policies above run inside the
-- subquery); the video's own policies decide whether its card can be shown.
create policy "anyone sees the lessons of courses they can see"
  on public.course_lessons for select to anon, authenticated
  using (exists (select 1 from public.courses c where c.id = course_id));

create policy "creators add lessons to their own courses"
  on public.course_lessons for insert to authenticated
  with check (exists (select 1 from public.courses c where c.id = course_id and c.creator_id = (select auth.uid())));

create policy "creators reorder lessons of their own courses"
  on public.course_lessons for update to authenticated
  using (exists (select 1 from public.courses c where c.id = course_id and c.creator_id = (select auth.uid())))
  with check (exists (select 1 from public.courses c where c.id = course_id and c.creator_id = (select auth.uid())));

create policy "creators remove lessons from their own courses"
  on public.course_lessons for delete to authenticated
  using (exists (select 1 from public.courses c where c.id = course_id and c.creator_id = (select auth.uid())));

create policy "learners see their own enrolments"
  on public.course_enrollments for select to authenticated
  using (user_id = (select auth.uid()));

create policy "learners enroll in published courses"
  on public.course_enrollments for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.courses c where c.id = course_id and c.is_published)
  );

create policy "learners leave their courses"
  on public.course_enrollments for delete to authenticated
  using (user_id = (select auth.uid()));

revoke all on public.courses, public.course_lessons, public.course_enrollments from anon, authenticated;
grant select on public.courses, public.course_lessons to anon;
grant select, delete on public.courses to authenticated;
grant insert (title, description, category_id, cover_path, is_published) on public.courses to authenticated;
grant update (title, description, category_id, cover_path, is_published) on public.courses to authenticated;
grant select, delete on public.course_lessons to authenticated;
grant insert (course_id, video_id, position, section_title) on public.course_lessons to authenticated;
grant update (position, section_title) on public.course_lessons to authenticated;
grant select, delete on public.course_enrollments to authenticated;
grant insert (course_id) on public.course_enrollments to authenticated;
