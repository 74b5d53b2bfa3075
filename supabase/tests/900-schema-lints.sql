-- 900 · Schema lints: the checks of Supabase's splinter advisor (and a few more),
-- written over the catalog so they run wherever pgTAP runs, PGlite included.
-- Each check lists the offending objects, so a failure names what to fix.
begin;
select plan(17);

-- The lints below are vacuous on an empty schema: first make sure there is one.
select cmp_ok(
  (select count(*)::int from pg_catalog.pg_tables where schemaname = 'public'), '>=', 14,
  'the data model tables exist in public'
);
select cmp_ok(
  (select count(*)::int from pg_catalog.pg_policies where schemaname in ('public', 'storage')), '>=', 20,
  'the data model has its policies'
);

-- Row-level security -------------------------------------------------------------

select is(
  array(
    select c.oid::regclass::text
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity
    order by 1
  ),
  '{}'::text[],
  'every table in public has row-level security enabled'
);

select ok(
  (select relrowsecurity from pg_catalog.pg_class where oid = 'storage.objects'::regclass),
  'storage.objects has row-level security enabled'
);

-- A table that RLS closes entirely must be meant that way: only the service role
-- (which bypasses RLS) touches these.
select is(
  array(
    select c.oid::regclass::text
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relrowsecurity
      and not exists (select 1 from pg_catalog.pg_policy p where p.polrelid = c.oid)
      and c.relname not in (
        'media_jobs', -- the media worker's queue: written by triggers and the worker (service role) only
        'worker_heartbeats', -- the media workers' liveness for /readyz: the workers (service role) only
        'rate_limits', -- the app's rate-limit windows: the server (service role) only
        'email_outbox', -- notification emails: written by a trigger, sent by the worker (service role) only
        'notification_digest_items' -- notifications waiting for a digest: the trigger and the worker only
      )
    order by 1
  ),
  '{}'::text[],
  'every public table has a policy, unless it is service-role only by design'
);

-- Policies -----------------------------------------------------------------------

select is(
  array(
    select format('%I.%I: %s', schemaname, tablename, policyname)
    from pg_catalog.pg_policies
    where schemaname in ('public', 'storage')
      and (coalesce(qual, '') ~* '(raw_)?user_meta(_)?data' or coalesce(with_check, '') ~* '(raw_)?user_meta(_)?data')
    order by 1
  ),
  '{}'::text[],
  'no policy reads user_metadata (users can write it themselves)'
);

-- A policy may also read user_metadata through a function it calls; only the sign-up
-- trigger may read it (to copy the chosen username and profile fields, never rights).
select is(
  array(
    select p.oid::regprocedure::text
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('public', 'storage')
      and p.prorettype <> 'pg_catalog.trigger'::regtype
      and p.prosrc ~* '(raw_)?user_meta(_)?data'
      and not exists (select 1 from pg_catalog.pg_depend d where d.objid = p.oid and d.deptype = 'e')
    order by 1
  ),
  '{}'::text[],
  'no function in public or storage reads user_metadata, except the sign-up trigger'
);

select is(
  array(
    select format('%I.%I: %s (%s)', schemaname, tablename, policyname, cmd)
    from pg_catalog.pg_policies
    where schemaname in ('public', 'storage')
      and cmd <> 'SELECT'
      and (btrim(coalesce(qual, '')) in ('true', '(true)') or btrim(coalesce(with_check, '')) in ('true', '(true)'))
    order by 1
  ),
  '{}'::text[],
  'no insert, update, delete or all policy is literally true'
);

-- `(select auth.uid())` is evaluated once per statement (an initPlan); a bare
-- `auth.uid()` once per row. The same holds for current_setting() and for our
-- zero-argument helpers. Read from the stored expression tree, not the text: a call
-- is fine only when its innermost enclosing query has no FROM (it is an initPlan).
create function pg_temp.calls_outside_initplans(tree pg_node_tree, funcs oid[]) returns integer
  language plpgsql immutable
as $$
declare
  token text;
  stack text[] := '{}';  -- per open node: 'initplan', 'query' or 'node'
  innermost_query text;
  bare integer := 0;
begin
  for token in
    select m.match[1]
    from regexp_matches(coalesce(tree::text, ''),
           '(\{QUERY [^{}]*:rtable <>|\{FUNCEXPR :funcid \d+|\{[A-Z_]+|\})', 'g') with ordinality as m (match, n)
    order by m.n
  loop
    if token = '}' then
      stack := stack[1:cardinality(stack) - 1];
    elsif token like '{QUERY%' then
      stack := stack || case when token like '%:rtable <>' then 'initplan' else 'query' end;
    else
      if token like '{FUNCEXPR%' and substring(token from '\d+$')::oid = any(funcs) then
        select q into innermost_query from unnest(stack) with ordinality as s (q, n)
        where q in ('initplan', 'query') order by n desc limit 1;
        if innermost_query is distinct from 'initplan' then
          bare := bare + 1;
        end if;
      end if;
      stack := stack || 'node'::text;
    end if;
  end loop;
  return bare;
end
$$;

select is(
  array(
    select format('%s: %s', p.polrelid::regclass, p.polname)
    from pg_catalog.pg_policy p
    join pg_catalog.pg_class c on c.oid = p.polrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    cross join (
      select array_agg(f.oid) as oids
      from pg_catalog.pg_proc f
      join pg_catalog.pg_namespace fn on fn.oid = f.pronamespace
      where (fn.nspname in ('auth', 'public') and f.pronargs = 0
             and f.prorettype <> 'pg_catalog.trigger'::regtype
             and not exists (select 1 from pg_catalog.pg_depend d where d.objid = f.oid and d.deptype = 'e'))
         or (fn.nspname = 'pg_catalog' and f.proname = 'current_setting')
    ) as watched
    where n.nspname in ('public', 'storage')
      and pg_temp.calls_outside_initplans(p.polqual, watched.oids)
        + pg_temp.calls_outside_initplans(p.polwithcheck, watched.oids) > 0
    order by 1
  ),
  '{}'::text[],
  'policies call auth.uid(), current_setting() and our zero-argument helpers as (select ...)'
);

-- Two permissive policies for the same role and action are both evaluated for every
-- row (splinter: multiple_permissive_policies); one policy with an OR is cheaper.
select is(
  array(
    select format('%s: %s for %s (%s)', p.polrelid::regclass, action.name, api.rolname,
                  string_agg(p.polname, ', ' order by p.polname))
    from pg_catalog.pg_policy p
    join pg_catalog.pg_class c on c.oid = p.polrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    cross join (values ('r', 'select'), ('a', 'insert'), ('w', 'update'), ('d', 'delete')) as action (cmd, name)
    cross join pg_catalog.pg_roles api
    where n.nspname in ('public', 'storage') and p.polpermissive
      and api.rolname in ('anon', 'authenticated')
      and (api.oid = any(p.polroles) or 0 = any(p.polroles))
      and p.polcmd in (action.cmd, '*')
    group by p.polrelid, action.name, api.rolname
    having count(*) > 1
    order by 1
  ),
  '{}'::text[],
  'no table has two permissive policies for the same role and action'
);

-- Functions ----------------------------------------------------------------------

select is(
  array(
    select p.oid::regprocedure::text
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('public', 'storage')
      and p.prosecdef
      and not coalesce('search_path=""' = any(p.proconfig), false)
      and not exists (select 1 from pg_catalog.pg_depend d where d.objid = p.oid and d.deptype = 'e')
    order by 1
  ),
  '{}'::text[],
  'every security-definer function in public and storage sets search_path to empty'
);

select is(
  array(
    select p.oid::regprocedure::text
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public'
      and not exists (select 1 from unnest(p.proconfig) as setting where setting like 'search_path=%')
      and p.prolang <> (select oid from pg_catalog.pg_language where lanname = 'c')
      and not exists (select 1 from pg_catalog.pg_depend d where d.objid = p.oid and d.deptype = 'e')
    order by 1
  ),
  '{}'::text[],
  'every function in public fixes its search_path (splinter: function_search_path_mutable)'
);

-- The allow-list: security-definer functions anon may call, as 'name(argument types)',
-- each with its reason in a comment. Otherwise visitors reach definer functions only
-- through the server.
--   search_videos(text,text,text): the lists' ranked search (ADR 0023). Visitors list
--     public videos too (GET /api/videos?search=); it returns what the select policy
--     already shows anon (ids, ranks and times of public ready videos), and is a definer
--     only so that the GIN index can be used.
--   search_public_captions(text,text,integer): visitors' search inside what is said
--     (ADR 0026 §4). search_captions narrowed to public ready videos: only cues the anon
--     select policies already show; a definer only so that the cues' GIN index is used.
--   spark_lessons(uuid[]), lesson_sparks(uuid): a spark's lesson and a lesson's sparks
--     (ADR 0050). The link columns are not granted to API roles; these answer a visitor
--     only links between public videos, by the select policies' own rule.
select is(
  array(
    select p.oid::regprocedure::text
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('public', 'storage')
      and p.prosecdef
      and pg_catalog.has_function_privilege('anon', p.oid, 'execute')
      and not exists (select 1 from pg_catalog.pg_depend d where d.objid = p.oid and d.deptype = 'e')
      and not p.oid::regprocedure::text = any (array['search_videos(text,text,text)', 'search_public_captions(text,text,integer)',
        'spark_lessons(uuid[])', 'lesson_sparks(uuid)']::text[])
    order by 1
  ),
  '{}'::text[],
  'anon cannot execute security-definer functions other than the allow-listed ones'
);

-- Views and exposure ---------------------------------------------------------------

select is(
  array(
    select c.oid::regclass::text
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'storage') and c.relkind = 'v'
      and not exists (select 1 from pg_catalog.pg_depend d where d.objid = c.oid and d.deptype = 'e')
      and coalesce(substring(array_to_string(c.reloptions, ',') from 'security_invoker=(\w+)'), 'false')
        not in ('true', 'on', 'yes', '1')
    order by 1
  ),
  '{}'::text[],
  'every view in public runs as its caller (security_invoker), none as its definer'
);

select is(
  array(
    select c.oid::regclass::text
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'm'
      and (pg_catalog.has_table_privilege('anon', c.oid, 'select')
           or pg_catalog.has_table_privilege('authenticated', c.oid, 'select'))
    order by 1
  ),
  '{}'::text[],
  'no materialized view in public is readable by the API roles (RLS cannot guard it)'
);

select is(
  array(
    select distinct v.oid::regclass::text
    from pg_catalog.pg_class v
    join pg_catalog.pg_namespace n on n.oid = v.relnamespace
    join pg_catalog.pg_rewrite rw on rw.ev_class = v.oid
    join pg_catalog.pg_depend d on d.objid = rw.oid and d.classid = 'pg_catalog.pg_rewrite'::regclass
    where n.nspname = 'public' and v.relkind in ('v', 'm')
      and d.refobjid = 'auth.users'::regclass
    order by 1
  ),
  '{}'::text[],
  'no view in public exposes auth.users'
);

-- Indexes ------------------------------------------------------------------------

select is(
  array(
    select format('%s (%s)', con.conrelid::regclass, con.conname)
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class c on c.oid = con.conrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where con.contype = 'f' and n.nspname in ('public', 'storage')
      and not exists (
        select 1
        from pg_catalog.pg_index i
        where i.indrelid = con.conrelid
          and (select array_agg(k order by k) from unnest(con.conkey) k)
            = (select array_agg(k order by k)
               from unnest((string_to_array(i.indkey::text, ' ')::int2[])[1:cardinality(con.conkey)]) k)
      )
    order by 1
  ),
  '{}'::text[],
  'every foreign key in public and storage has a covering index'
);

select * from finish();
rollback;
