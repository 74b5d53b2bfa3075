-- Makes a plain PostgreSQL 15+ server (or PGlite) look like a Supabase database, so
-- that supabase/migrations/*.sql run unchanged on it.
--
-- It recreates only what the migrations and the stand-in auth/storage servers rely
-- on: the API roles, the auth/storage/extensions schemas, auth.uid() and friends,
-- GoTrue's tables and Storage's tables with their grants. Column names and types
-- mirror GoTrue (supabase/auth) and Storage (supabase/storage) so that code written
-- against them also works against a real Supabase project.
--
-- Run it as a superuser, and run the migrations as the same role: the default
-- privileges below apply to objects that role creates. It is idempotent: every
-- object is created only when absent, so running it twice changes nothing.

do $$
begin
  if not (select rolsuper from pg_catalog.pg_roles where rolname = current_user) then
    raise exception 'bootstrap.sql must run as a superuser (it creates roles with BYPASSRLS)';
  end if;
end
$$;

-- Roles -------------------------------------------------------------------------

-- The roles PostgREST, Storage and the app switch to with SET ROLE. anon and
-- authenticated are ordinary roles gated by RLS; service_role bypasses RLS.
-- authenticator is NOLOGIN here (on Supabase it logs in with a password): on a
-- shared server with trust authentication a passwordless login role that may
-- become service_role would be a way around every policy.
-- Roles belong to the whole server, and test runs bootstrap several databases at
-- once: a role another session created meanwhile is not an error.
do $$
declare
  role_spec record;
begin
  for role_spec in
    select * from (values
      ('anon', 'nologin noinherit'),
      ('authenticated', 'nologin noinherit'),
      ('service_role', 'nologin noinherit bypassrls'),
      ('authenticator', 'nologin noinherit')
    ) as r (name, options)
  loop
    if not exists (select 1 from pg_catalog.pg_roles where rolname = role_spec.name) then
      begin
        execute format('create role %I %s', role_spec.name, role_spec.options);
      exception when duplicate_object or unique_violation then
        null;
      end;
    end if;
  end loop;

  for role_spec in select unnest(array['anon', 'authenticated', 'service_role']) as name loop
    if not pg_catalog.pg_has_role('authenticator', role_spec.name, 'member') then
      begin
        execute format('grant %I to authenticator', role_spec.name);
      exception when unique_violation then
        null;
      end;
    end if;
  end loop;
end
$$;

-- Schemas -----------------------------------------------------------------------

create schema if not exists auth;
create schema if not exists storage;
create schema if not exists extensions;

grant usage on schema public, auth, storage, extensions to anon, authenticated, service_role;

-- Supabase grants the API roles everything in public by default, so that row-level
-- security is the only gate (a table without RLS is open: the advisor flags it).
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;

-- Supabase installs pgcrypto in the extensions schema (seeds use extensions.crypt()).
-- PGlite ships it as a contrib module the host must load first; without it the
-- schema works all the same (gen_random_uuid() is core).
do $$
begin
  create extension if not exists pgcrypto with schema extensions;
exception when others then
  raise notice 'pgcrypto not available (%); continuing without it', sqlerrm;
end
$$;

-- auth: the caller's JWT ----------------------------------------------------------

-- Supabase's definitions: PostgREST used to set request.jwt.claim.<name> one claim at
-- a time, and now sets request.jwt.claims as one JSON document; read both.
create or replace function auth.uid() returns uuid
  language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
  language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
  language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

create or replace function auth.jwt() returns jsonb
  language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

-- auth: GoTrue's tables -------------------------------------------------------------

do $$
begin
  if not exists (select 1 from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace
                 where n.nspname = 'auth' and t.typname = 'aal_level') then
    create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
  end if;
  if not exists (select 1 from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace
                 where n.nspname = 'auth' and t.typname = 'code_challenge_method') then
    create type auth.code_challenge_method as enum ('s256', 'plain');
  end if;
  if not exists (select 1 from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace
                 where n.nspname = 'auth' and t.typname = 'one_time_token_type') then
    create type auth.one_time_token_type as enum (
      'confirmation_token', 'reauthentication_token', 'recovery_token',
      'email_change_token_new', 'email_change_token_current', 'phone_change_token'
    );
  end if;
end
$$;

-- GoTrue writes every column itself: like the real table, no defaults beyond
-- GoTrue's own, so tests that insert users here also run on `supabase test db`.
create table if not exists auth.users (
  instance_id uuid,
  id uuid not null primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text unique default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0
    check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2),
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
create unique index if not exists users_email_partial_key on auth.users (email) where is_sso_user = false;
create index if not exists users_instance_id_email_idx on auth.users (instance_id, lower(email));
create index if not exists users_instance_id_idx on auth.users (instance_id);
create index if not exists users_is_anonymous_idx on auth.users (is_anonymous);

create table if not exists auth.sessions (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz,
  updated_at timestamptz,
  factor_id uuid,
  aal auth.aal_level,
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  tag text
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);
create index if not exists user_id_created_at_idx on auth.sessions (user_id, created_at);
create index if not exists sessions_not_after_idx on auth.sessions (not_after desc);

-- user_id is varchar without a foreign key, as in GoTrue; tokens go with their
-- session (on delete cascade), and sessions go with their user.
create table if not exists auth.refresh_tokens (
  instance_id uuid,
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz,
  updated_at timestamptz,
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
create index if not exists refresh_tokens_instance_id_user_id_idx on auth.refresh_tokens (instance_id, user_id);
create index if not exists refresh_tokens_parent_idx on auth.refresh_tokens (parent);
create index if not exists refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);
create index if not exists refresh_tokens_updated_at_idx on auth.refresh_tokens (updated_at desc);

create table if not exists auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid not null default gen_random_uuid() primary key,
  constraint identities_provider_id_provider_unique unique (provider_id, provider)
);
create index if not exists identities_user_id_idx on auth.identities (user_id);
create index if not exists identities_email_idx on auth.identities (email text_pattern_ops);

-- PKCE flows (password recovery links that come back with ?code=).
create table if not exists auth.flow_state (
  id uuid not null primary key,
  user_id uuid,
  auth_code text not null,
  code_challenge_method auth.code_challenge_method not null,
  code_challenge text not null,
  provider_type text not null,
  provider_access_token text,
  provider_refresh_token text,
  created_at timestamptz,
  updated_at timestamptz,
  authentication_method text not null,
  auth_code_issued_at timestamptz
);
create index if not exists idx_auth_code on auth.flow_state (auth_code);
create index if not exists idx_user_id_auth_method on auth.flow_state (user_id, authentication_method);
create index if not exists flow_state_created_at_idx on auth.flow_state (created_at desc);

-- Hashed recovery/confirmation tokens, one per user and kind.
create table if not exists auth.one_time_tokens (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type auth.one_time_token_type not null,
  token_hash text not null check (char_length(token_hash) > 0),
  relates_to text not null,
  created_at timestamp not null default now(),
  updated_at timestamp not null default now(),
  constraint one_time_tokens_user_id_token_type_key unique (user_id, token_type)
);
create index if not exists one_time_tokens_token_hash_hash_idx on auth.one_time_tokens using hash (token_hash);
create index if not exists one_time_tokens_relates_to_hash_idx on auth.one_time_tokens using hash (relates_to);

-- How each session was authenticated (password, otp, recovery): the `amr` claim of
-- every access token the session gets, refreshes included.
create table if not exists auth.mfa_amr_claims (
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid not null primary key,
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
);

-- GoTrue's tables are private to the server that owns them: no grants to the API
-- roles (the app reaches emails through public.list_users(), admins only).

-- storage: Storage's tables ---------------------------------------------------------

create table if not exists storage.buckets (
  id text not null primary key,
  name text not null,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[]
);
create unique index if not exists bname on storage.buckets (name);

create table if not exists storage.objects (
  id uuid not null default gen_random_uuid() primary key,
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

-- Storage itself runs each request as the caller: these grants plus the policies the
-- migrations add on storage.objects decide who may read and write what.
grant select, insert, update, delete on storage.objects to anon, authenticated;
grant select on storage.buckets to anon, authenticated;
grant all on storage.objects, storage.buckets to service_role;

create or replace function storage.update_updated_at_column() returns trigger
  language plpgsql
as $$
begin
  new.updated_at = now();
  return new;
end
$$;

do $$
begin
  if not exists (select 1 from pg_catalog.pg_trigger
                 where tgname = 'update_objects_updated_at' and tgrelid = 'storage.objects'::regclass) then
    create trigger update_objects_updated_at before update on storage.objects
      for each row execute function storage.update_updated_at_column();
  end if;
end
$$;

-- Storage's helpers for policies: 'a/b/c.mp4' -> {a,b}, 'c.mp4', 'mp4'.
create or replace function storage.foldername(name text) returns text[]
  language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1 : array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
  language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
  language plpgsql immutable
as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;
