-- ADR 0012, finding 6: sign-up metadata is copied into constrained profile columns,
-- so a 600-character bio, an unknown field of interest or a portfolio path in
-- someone else's folder failed deep inside the insert (a 500, "Database error
-- saving new user"). handle_new_user() now checks the metadata first and refuses
-- with SQLSTATE 22023 (invalid_parameter_value) and a message that names the
-- field; the stand-in answers it as 422 validation_failed with that message (a
-- real GoTrue answers any trigger error as 500 "Database error saving new user",
-- and the transaction rolls back either way: nothing is created). Unknown
-- creator categories are refused too instead of silently dropped.
create or replace function public.handle_new_user() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  new_role text := case when meta ->> 'role' = 'creator' then 'creator' else 'user' end;
  id_suffix text := left(replace(new.id::text, '-', ''), 8);
  new_username text;
  bad text;
begin
  -- Values that would break a constraint are refused with a clear message.
  if jsonb_typeof(meta -> 'bio') not in ('string', 'null') then
    raise exception 'bio must be text' using errcode = '22023';
  end if;
  if char_length(coalesce(meta ->> 'bio', '')) > 500 then
    raise exception 'bio must be at most 500 characters' using errcode = '22023';
  end if;
  if nullif(meta ->> 'field_of_interest', '') is not null and (meta ->> 'field_of_interest') not in (
    'Computer Science', 'Mathematics', 'Physics', 'Chemistry', 'Biology', 'Engineering',
    'Medicine', 'Arts', 'Humanities', 'Social Sciences', 'Business'
  ) then
    raise exception 'unknown field of interest: %', left(meta ->> 'field_of_interest', 100) using errcode = '22023';
  end if;
  if nullif(meta ->> 'concentration', '') is not null and (meta ->> 'concentration') not in (
    'Web Development', 'Mobile Development', 'Data Science', 'Machine Learning',
    'Artificial Intelligence', 'Cybersecurity', 'Cloud Computing', 'DevOps',
    'UX/UI Design', 'Game Development'
  ) then
    raise exception 'unknown concentration: %', left(meta ->> 'concentration', 100) using errcode = '22023';
  end if;
  if jsonb_typeof(meta -> 'interests') = 'array' and (
    jsonb_array_length(meta -> 'interests') > 50
    or exists (select 1 from jsonb_array_elements(meta -> 'interests') e
                where jsonb_typeof(e) <> 'string' or char_length(e #>> '{}') > 100)
  ) then
    raise exception 'interests must be at most 50 texts of at most 100 characters' using errcode = '22023';
  end if;
  if nullif(meta ->> 'portfolio_path', '') is not null then
    if not starts_with(meta ->> 'portfolio_path', new.id::text || '/') then
      raise exception 'portfolio_path must be a file in your own folder' using errcode = '22023';
    end if;
    if coalesce(meta ->> 'portfolio_type', '') not in ('video', 'image', 'document') then
      raise exception 'portfolio_type must be video, image or document' using errcode = '22023';
    end if;
  elsif nullif(meta ->> 'portfolio_type', '') is not null and (meta ->> 'portfolio_type') not in ('video', 'image', 'document') then
    raise exception 'portfolio_type must be video, image or document' using errcode = '22023';
  end if;
  if new_role = 'creator' and jsonb_typeof(meta -> 'creator_categories') = 'array' then
    select e #>> '{}' into bad
      from jsonb_array_elements(meta -> 'creator_categories') e
     where jsonb_typeof(e) <> 'string'
        or not exists (select 1 from public.categories c where c.id = e #>> '{}' or c.name = e #>> '{}')
     limit 1;
    if found then
      raise exception 'unknown category: %', left(coalesce(bad, ''), 100) using errcode = '22023';
    end if;
  end if;

  new_username := left(regexp_replace(
    coalesce(nullif(btrim(meta ->> 'username'), ''), split_part(coalesce(new.email, ''), '@', 1)),
    '[^A-Za-z0-9._-]+', '_', 'g'), 30);
  if char_length(new_username) < 3 then
    new_username := 'user_' || id_suffix;
  elsif exists (select 1 from public.profiles p where lower(p.username) = lower(new_username)) then
    new_username := left(new_username, 21) || '_' || id_suffix;
  end if;

  insert into public.profiles (
    id, username, role, bio, field_of_interest, concentration, interests, portfolio_path, portfolio_type
  ) values (
    new.id,
    new_username,
    new_role,
    coalesce(meta ->> 'bio', ''),
    nullif(meta ->> 'field_of_interest', ''),
    nullif(meta ->> 'concentration', ''),
    case when jsonb_typeof(meta -> 'interests') = 'array'
      then array(select jsonb_array_elements_text(meta -> 'interests'))
      else '{}'::text[] end,
    nullif(meta ->> 'portfolio_path', ''),
    nullif(meta ->> 'portfolio_type', '')
  );

  if new_role = 'creator' then
    -- Categories may be given by id or by their exact label (checked above).
    if jsonb_typeof(meta -> 'creator_categories') = 'array' then
      insert into public.creator_categories (creator_id, category_id)
      select new.id, c.id
        from public.categories c
       where c.id in (select jsonb_array_elements_text(meta -> 'creator_categories'))
          or c.name in (select jsonb_array_elements_text(meta -> 'creator_categories'));
    end if;

    insert into public.creator_applications (creator_id, portfolio_path, portfolio_type)
    values (new.id, nullif(meta ->> 'portfolio_path', ''), nullif(meta ->> 'portfolio_type', ''));
  end if;

  return null;
end
$$;
