-- Checkpoints: questions inside a video (ADR 0047).
--
-- * public.checkpoints: a question at a moment of a video (or, for a spark, at its end):
--   2–5 options, required or optional. Whoever can see the video reads them.
-- * public.checkpoint_keys: which options are correct, and the explanation shown after
--   answering. Only the video's creator and admins read them: a learner never gets the
--   key before answering, not through a page, /api nor /rest/v1.
-- * public.checkpoint_attempts: each answer a learner gave (chosen options, right or not,
--   when). Private to the learner; the creator sees aggregates only, through
--   public.checkpoint_stats(), which checks that the caller owns the video (or is an admin).
-- * Writes go through functions: public.add_checkpoint() (the creator or an admin, the
--   question and its key in one go), public.answer_checkpoint() (scores and records an
--   answer). A creator or an admin deletes a checkpoint directly (RLS).

-- The options of a question: 2–5, each 1–200 characters, no blank one.
create function public.checkpoint_options_valid(options text[]) returns boolean
  language sql immutable
  set search_path = ''
as $$
  select coalesce(array_ndims(options) = 1, false)
     and cardinality(options) between 2 and 5
     and not exists (select 1 from unnest(options) o where o is null or btrim(o) = '' or char_length(o) > 200)
$$;

comment on function public.checkpoint_options_valid(text[]) is
  'True for 2–5 options of 1–200 characters each: the checkpoints.options check.';

-- The correct options: at least one, distinct, each an index (0–4) into the options.
create function public.checkpoint_choice_valid(choice smallint[]) returns boolean
  language sql immutable
  set search_path = ''
as $$
  select coalesce(array_ndims(choice) = 1, false)
     and cardinality(choice) between 1 and 5
     and not exists (select 1 from unnest(choice) c where c is null or c < 0 or c > 4)
     and (select count(distinct c) from unnest(choice) c) = cardinality(choice)
$$;

comment on function public.checkpoint_choice_valid(smallint[]) is
  'True for 1–5 distinct option indexes (0–4): a key''s correct options or an answer''s chosen ones.';

create table public.checkpoints (
  id uuid primary key default gen_random_uuid(),
  video_id uuid not null references public.videos (id) on delete cascade,
  at_seconds numeric(10, 3) not null check (at_seconds > 0),
  question text not null check (btrim(question) <> '' and char_length(question) <= 500),
  options text[] not null check (public.checkpoint_options_valid(options)),
  required boolean not null default false,
  multiple boolean not null default false,
  created_at timestamptz not null default now(),
  unique (video_id, at_seconds)
);

comment on table public.checkpoints is
  'A question at a moment of a video (a spark: at its end). The answer key is in checkpoint_keys, readable by the creator and admins only.';
comment on column public.checkpoints.options is 'The options in order; answers and keys name them by index from 0.';
comment on column public.checkpoints.multiple is
  'More than one option is correct: the player shows checkboxes ("choose all that apply") instead of radio buttons. Says nothing of which.';
comment on column public.checkpoints.required is 'The player does not pass a required checkpoint until it is answered right.';

create table public.checkpoint_keys (
  checkpoint_id uuid primary key references public.checkpoints (id) on delete cascade,
  correct smallint[] not null check (public.checkpoint_choice_valid(correct)),
  explanation text not null default '' check (char_length(explanation) <= 1000)
);

comment on table public.checkpoint_keys is
  'The correct options and explanation of a checkpoint: the creator and admins read them; learners get only a scored answer (answer_checkpoint).';

create table public.checkpoint_attempts (
  id bigint generated always as identity primary key,
  checkpoint_id uuid not null references public.checkpoints (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  chosen smallint[] not null check (public.checkpoint_choice_valid(chosen)),
  correct boolean not null,
  created_at timestamptz not null default now()
);

comment on table public.checkpoint_attempts is
  'Every answer a learner gave to a checkpoint. Private to the learner; creators read aggregates through checkpoint_stats().';

create index checkpoint_attempts_user_idx on public.checkpoint_attempts (user_id, checkpoint_id, created_at);
create index checkpoint_attempts_checkpoint_idx on public.checkpoint_attempts (checkpoint_id, user_id, created_at);

-- At most 20 per video, a spark only one (at its end), and every moment inside the video.
create function public.check_checkpoint() returns trigger
  language plpgsql
  set search_path = ''
as $$
declare
  video record;
  limit_count integer;
begin
  select v.type, v.duration_seconds into video from public.videos v where v.id = new.video_id;
  perform pg_advisory_xact_lock(hashtext('checkpoints'), hashtext(new.video_id::text));
  if video.duration_seconds is null then
    raise exception 'Checkpoints can be added once the video has been processed' using errcode = 'check_violation';
  end if;
  if new.at_seconds > video.duration_seconds or (video.type = 'video' and new.at_seconds >= video.duration_seconds) then
    raise exception 'A checkpoint must be inside the video' using errcode = 'check_violation';
  end if;
  limit_count := case when video.type = 'spark' then 1 else 20 end;
  if tg_op = 'INSERT' and (select count(*) from public.checkpoints c where c.video_id = new.video_id) >= limit_count then
    if video.type = 'spark' then
      raise exception 'A spark can have only one checkpoint' using errcode = 'check_violation';
    end if;
    raise exception 'A video can have at most 20 checkpoints' using errcode = 'check_violation';
  end if;
  return new;
end
$$;

revoke execute on function public.check_checkpoint() from public, anon, authenticated;

create trigger checkpoints_check before insert or update on public.checkpoints
  for each row execute function public.check_checkpoint();

-- Row-level security ------------------------------------------------------------------

alter table public.checkpoints enable row level security;
alter table public.checkpoint_keys enable row level security;
alter table public.checkpoint_attempts enable row level security;

create policy "everyone reads the checkpoints of videos they can see"
  on public.checkpoints for select to anon, authenticated
  using (exists (select 1 from public.videos v where v.id = video_id));

create policy "creators and admins delete checkpoints"
  on public.checkpoints for delete to authenticated
  using (public.can_edit_captions(video_id));

create policy "creators and admins read the keys"
  on public.checkpoint_keys for select to authenticated
  using (exists (
    select 1 from public.checkpoints c where c.id = checkpoint_id and public.can_edit_captions(c.video_id)
  ));

create policy "learners read their own answers"
  on public.checkpoint_attempts for select to authenticated
  using (user_id = (select auth.uid()));

-- Written only by the functions below.
revoke all on public.checkpoints, public.checkpoint_keys, public.checkpoint_attempts from anon;
grant select on public.checkpoints to anon;
revoke insert, update, truncate on public.checkpoints, public.checkpoint_keys, public.checkpoint_attempts from authenticated;
revoke delete on public.checkpoint_keys, public.checkpoint_attempts from authenticated;

-- Functions ---------------------------------------------------------------------------

-- Adds a checkpoint and its key (the video's creator or an admin). A spark's checkpoint is
-- at its end whatever `at_seconds` says. Refuses (42501) anyone else; the checks above
-- refuse (23514) bad questions, options, keys, moments and a 21st checkpoint.
create function public.add_checkpoint(
  video_id uuid,
  at_seconds numeric,
  question text,
  options text[],
  correct smallint[],
  explanation text default '',
  required boolean default false
) returns public.checkpoints
  language plpgsql security definer
  set search_path = ''
as $$
declare
  video record;
  saved public.checkpoints;
begin
  select v.id, v.type, v.duration_seconds into video
    from public.videos v
   where v.id = add_checkpoint.video_id
     and (v.creator_id = (select auth.uid()) or public.is_admin());
  if not found then
    raise exception 'only the video''s creator or an admin adds checkpoints' using errcode = '42501';
  end if;
  if not public.checkpoint_choice_valid(add_checkpoint.correct)
     or exists (select 1 from unnest(add_checkpoint.correct) c where c >= coalesce(cardinality(add_checkpoint.options), 0)) then
    raise exception 'The correct options must be among the options' using errcode = 'check_violation';
  end if;
  insert into public.checkpoints (video_id, at_seconds, question, options, required, multiple)
  values (video.id,
          case when video.type = 'spark' then coalesce(video.duration_seconds, add_checkpoint.at_seconds)
               else round(add_checkpoint.at_seconds, 3) end,
          btrim(add_checkpoint.question),
          array(select btrim(o) from unnest(add_checkpoint.options) with ordinality as t (o, n) order by n),
          coalesce(add_checkpoint.required, false),
          cardinality(add_checkpoint.correct) > 1)
  returning * into saved;
  insert into public.checkpoint_keys (checkpoint_id, correct, explanation)
  values (saved.id, array(select c from unnest(add_checkpoint.correct) c order by c),
          btrim(coalesce(add_checkpoint.explanation, '')));
  return saved;
end
$$;

revoke execute on function public.add_checkpoint(uuid, numeric, text, text[], smallint[], text, boolean) from public, anon;
grant execute on function public.add_checkpoint(uuid, numeric, text, text[], smallint[], text, boolean) to authenticated, service_role;

comment on function public.add_checkpoint(uuid, numeric, text, text[], smallint[], text, boolean) is
  'Adds a checkpoint and its answer key to a video (its creator or an admin).';

-- Scores the caller's answer to a checkpoint of a video they can watch, records it, and
-- returns whether it was right and the explanation: the only way a learner learns anything
-- of the key, and only after answering. Refuses (42501) visitors and checkpoints of videos
-- the caller cannot see; (22023) a choice that is not 1–5 distinct options of the question.
create function public.answer_checkpoint(checkpoint_id uuid, chosen smallint[])
  returns table (correct boolean, explanation text)
  language plpgsql security definer
  set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  point record;
  right_answer boolean;
begin
  if uid is null or not exists (select 1 from public.profiles p where p.id = uid) then
    raise exception 'only a signed-in learner answers checkpoints' using errcode = '42501';
  end if;
  select c.id, c.options, k.correct, k.explanation into point
    from public.checkpoints c
    join public.videos v on v.id = c.video_id
    join public.checkpoint_keys k on k.checkpoint_id = c.id
   where c.id = answer_checkpoint.checkpoint_id
     and (v.status = 'ready' or v.external_url is not null)
     and (v.is_public or v.creator_id = uid or public.is_admin());
  if not found then
    raise exception 'no such checkpoint' using errcode = '42501';
  end if;
  if not public.checkpoint_choice_valid(answer_checkpoint.chosen)
     or exists (select 1 from unnest(answer_checkpoint.chosen) c where c >= cardinality(point.options)) then
    raise exception 'Choose among the options' using errcode = '22023';
  end if;
  right_answer := array(select c from unnest(answer_checkpoint.chosen) c order by c) = point.correct;
  insert into public.checkpoint_attempts (checkpoint_id, user_id, chosen, correct)
  values (point.id, uid, array(select c from unnest(answer_checkpoint.chosen) c order by c), right_answer);
  return query select right_answer, point.explanation;
end
$$;

revoke execute on function public.answer_checkpoint(uuid, smallint[]) from public, anon;
grant execute on function public.answer_checkpoint(uuid, smallint[]) to authenticated, service_role;

comment on function public.answer_checkpoint(uuid, smallint[]) is
  'Scores and records the caller''s answer to a checkpoint; returns whether it was right and the explanation.';

-- The caller's own results on a video's checkpoints: per checkpoint they answered, how many
-- times, their last answer, whether it was right, whether any was, and the explanation
-- (which they have earned by answering). Nothing for checkpoints they did not answer.
create function public.my_checkpoint_results(video_id uuid)
  returns table (
    checkpoint_id uuid, attempts integer, last_chosen smallint[], last_correct boolean,
    ever_correct boolean, explanation text, answered_at timestamptz
  )
  language sql stable security definer
  set search_path = ''
as $$
  select c.id, s.attempts, l.chosen, l.correct, s.ever_correct, k.explanation, l.created_at
    from public.checkpoints c
    join public.checkpoint_keys k on k.checkpoint_id = c.id
    join public.videos v on v.id = c.video_id
    cross join lateral (
      select count(*)::int as attempts, bool_or(a.correct) as ever_correct
        from public.checkpoint_attempts a
       where a.checkpoint_id = c.id and a.user_id = (select auth.uid())
    ) s
    cross join lateral (
      select a.chosen, a.correct, a.created_at
        from public.checkpoint_attempts a
       where a.checkpoint_id = c.id and a.user_id = (select auth.uid())
       order by a.created_at desc, a.id desc
       limit 1
    ) l
   where c.video_id = my_checkpoint_results.video_id
     and (v.is_public or v.creator_id = (select auth.uid()) or public.is_admin())
$$;

revoke execute on function public.my_checkpoint_results(uuid) from public, anon;
grant execute on function public.my_checkpoint_results(uuid) to authenticated, service_role;

comment on function public.my_checkpoint_results(uuid) is
  'The caller''s own answers to a video''s checkpoints (only those answered), with the explanations.';

-- Aggregates for the video's creator or an admin, never one learner's answers: per
-- checkpoint, how many learners answered, how many were right on their first try, the
-- wrong option chosen most often (by index, with how many wrong answers chose it), and
-- how many learners stopped watching there (their saved position is within 2 s of the
-- checkpoint and they did not finish the video). The creator's own answers do not count.
create function public.checkpoint_stats(video_id uuid)
  returns table (
    checkpoint_id uuid, at_seconds numeric, question text, options text[], required boolean,
    learners integer, first_try_correct integer, top_wrong_option smallint, top_wrong_count integer,
    stopped_here integer
  )
  language plpgsql stable security definer
  set search_path = ''
as $$
declare
  owner uuid;
begin
  select v.creator_id into owner from public.videos v
   where v.id = checkpoint_stats.video_id and (v.creator_id = (select auth.uid()) or public.is_admin());
  if not found then
    raise exception 'only the video''s creator or an admin reads its checkpoint answers' using errcode = '42501';
  end if;
  return query
  with firsts as (
    select distinct on (a.checkpoint_id, a.user_id) a.checkpoint_id, a.user_id, a.correct
      from public.checkpoint_attempts a
      join public.checkpoints c on c.id = a.checkpoint_id
     where c.video_id = checkpoint_stats.video_id and a.user_id <> owner
     order by a.checkpoint_id, a.user_id, a.created_at, a.id
  ),
  wrong as (
    select a.checkpoint_id, o.n::smallint as option_index, count(*)::int as times
      from public.checkpoint_attempts a
      join public.checkpoints c on c.id = a.checkpoint_id
      join public.checkpoint_keys k on k.checkpoint_id = c.id
      cross join lateral unnest(a.chosen) as o (n)
     where c.video_id = checkpoint_stats.video_id and a.user_id <> owner
       and not a.correct and not (o.n = any (k.correct))
     group by a.checkpoint_id, o.n
  )
  select c.id, c.at_seconds, c.question, c.options, c.required,
         (select count(*)::int from firsts f where f.checkpoint_id = c.id),
         (select count(*)::int from firsts f where f.checkpoint_id = c.id and f.correct),
         w.option_index, coalesce(w.times, 0),
         (select count(*)::int from public.watch_progress p
           where p.video_id = c.video_id and p.user_id <> owner and not p.finished
             and p.position_seconds between c.at_seconds - 2 and c.at_seconds + 2)
    from public.checkpoints c
    left join lateral (
      select wr.option_index, wr.times from wrong wr
       where wr.checkpoint_id = c.id order by wr.times desc, wr.option_index limit 1
    ) w on true
   where c.video_id = checkpoint_stats.video_id
   order by c.at_seconds;
end
$$;

revoke execute on function public.checkpoint_stats(uuid) from public, anon;
grant execute on function public.checkpoint_stats(uuid) to authenticated, service_role;

comment on function public.checkpoint_stats(uuid) is
  'Per checkpoint of a video, aggregates only (first-try right, most chosen wrong option, stopped here), for its creator or an admin.';
