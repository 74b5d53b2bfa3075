-- 380 · Notifications of new checkpoint answers (ADR 0032, ADR 0047).
-- Proves: a learner's answer to a video's checkpoint notifies its creator once per video
-- and UTC day (a second answer, a second learner, another checkpoint of the same video the
-- same day add no row; the next day or another video add one); the creator's own answers
-- notify nobody and are not counted; the count is taken at read time (distinct learners
-- that day, a deleted learner no longer counted) and only the recipient and the service
-- role read it; nobody else reads the notification; the creator's email choice queues an
-- email, and the default (in the app only) none.
begin;
select plan(19);

select tests.create_cast();
select tests.create_video('creator_a', 'Why the Sky Is Blue', true);
select tests.create_video('creator_a', 'Another lesson', true);
-- The notifications as the superuser sees them (to name one as any role).
create temporary view answer_notes as
  select n.id, n.recipient_id, n.video_id, n.actor_id, n.group_key, n.created_at
    from public.notifications n where n.type = 'checkpoint_answers';
grant select on answer_notes to authenticated, service_role;

select tests.authenticate_as('creator_a');
select public.add_checkpoint(tests.video_id('Why the Sky Is Blue'), 8, 'Why blue?', array['Rayleigh', 'Paint'],
  array[0]::smallint[]);
select public.add_checkpoint(tests.video_id('Why the Sky Is Blue'), 20, 'Sunsets?', array['Red', 'Green'],
  array[0]::smallint[]);
select public.add_checkpoint(tests.video_id('Another lesson'), 8, 'Other?', array['a', 'b'], array[0]::smallint[]);

-- The creator answering their own checkpoints: nothing.
select public.answer_checkpoint(tests.row_id('public.checkpoints', 'question', 'Why blue?'), array[1]::smallint[]);
select tests.authenticate_as_superuser();
select is((select count(*)::int from answer_notes), 0, 'the creator''s own answers notify nobody');

-- A learner answers: the creator hears of it, once.
select tests.authenticate_as('learner_a');
select public.answer_checkpoint(tests.row_id('public.checkpoints', 'question', 'Why blue?'), array[1]::smallint[]);
select public.answer_checkpoint(tests.row_id('public.checkpoints', 'question', 'Why blue?'), array[0]::smallint[]);
select public.answer_checkpoint(tests.row_id('public.checkpoints', 'question', 'Sunsets?'), array[0]::smallint[]);
select tests.authenticate_as_superuser();
select is((select count(*)::int from answer_notes), 1, 'a learner''s answers notify the creator once');
select is((select recipient_id from answer_notes), tests.get_supabase_uid('creator_a'), 'the video''s creator');
select is((select video_id from answer_notes), tests.video_id('Why the Sky Is Blue'), 'about the video');
select is((select actor_id from answer_notes), null::uuid, 'naming no learner');
select is((select group_key from answer_notes),
  'checkpoint_answers:' || tests.video_id('Why the Sky Is Blue') || ':' || to_char(now() at time zone 'UTC', 'YYYY-MM-DD'),
  'grouped by video and UTC day');

select tests.authenticate_as('learner_b');
select public.answer_checkpoint(tests.row_id('public.checkpoints', 'question', 'Sunsets?'), array[1]::smallint[]);
select tests.authenticate_as_superuser();
select is((select count(*)::int from answer_notes), 1, 'a second learner the same day adds no notification');

-- The count, at read time, as the recipient.
select tests.authenticate_as('creator_a');
select is((select public.checkpoint_answer_count(id) from answer_notes), 2,
  'the creator reads 2 learners (not counting their own answer, nor a learner twice)');
select is((select count(*)::int from public.notifications where type = 'checkpoint_answers'), 1,
  'the creator reads the notification');

select tests.authenticate_as('learner_a');
select is((select count(*)::int from public.notifications where type = 'checkpoint_answers'), 0,
  'the learner who answered does not read it');
select is((select public.checkpoint_answer_count(id) from answer_notes), null::int, 'nor its count');
select tests.authenticate_as('creator_b');
select is((select count(*)::int from public.notifications where type = 'checkpoint_answers'), 0,
  'another creator does not read it');
select is((select public.checkpoint_answer_count(id) from answer_notes), null::int, 'nor its count');
select tests.authenticate_as('admin_a');
select is((select count(*)::int from public.notifications where type = 'checkpoint_answers'), 0,
  'nor does an admin');
select tests.clear_authentication();
select throws_ok($$ select public.checkpoint_answer_count(gen_random_uuid()) $$, '42501', null,
  'a visitor cannot call the count');
select tests.authenticate_as_service_role();
select is((select public.checkpoint_answer_count(id) from answer_notes), 2, 'the service role reads it (the emails)');

-- A deleted learner stops counting.
select tests.authenticate_as_superuser();
delete from auth.users where id = tests.get_supabase_uid('learner_b');
select tests.authenticate_as('creator_a');
select is((select public.checkpoint_answer_count(id) from answer_notes), 1, 'a deleted learner no longer counts');

-- Another video the same day, and the same video the next day: one more each. The creator
-- chose email for these: the second queues an email.
select tests.authenticate_as('creator_a');
insert into public.notification_preferences (user_id, type, channel)
values (tests.get_supabase_uid('creator_a'), 'checkpoint_answers', 'email');
select tests.authenticate_as('learner_a');
select public.answer_checkpoint(tests.row_id('public.checkpoints', 'question', 'Other?'), array[0]::smallint[]);
select tests.authenticate_as_superuser();
insert into public.checkpoint_attempts (checkpoint_id, user_id, chosen, correct, created_at)
values (tests.row_id('public.checkpoints', 'question', 'Why blue?'), tests.get_supabase_uid('learner_a'),
        array[0]::smallint[], true, now() + interval '1 day');
select is((select count(*)::int from answer_notes), 3, 'another video, and the next day, notify again');
select is((select count(*)::int from public.email_outbox o join answer_notes n on n.id = o.notification_id
  where o.kind = 'notification'), 2, 'emails queued once the creator chose email (none before)');

select * from finish();
rollback;
