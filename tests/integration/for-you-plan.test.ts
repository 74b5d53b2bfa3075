import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claimsFor, migratedDatabase } from '../support/databases'

/**
 * The plan of the For You query (public.for_you_sparks, ADR 0052) on a seeded PostgreSQL
 * database with enough view rows that reading them all would be a sequential scan: every
 * statement the function runs is EXPLAINed as it runs (auto_explain, with nested
 * statements), and none may scan video_views sequentially — the learner's history and
 * "did they watch this clip?" go through the views' (viewer_id, …) indexes. And the check
 * can fail: without those indexes the same query does scan them.
 *
 * auto_explain ships with PostgreSQL (contrib); loading it needs the superuser the tests
 * already connect as (TEST_DATABASE_URL).
 */
const SPARKS = 3_000
const CREATORS = 60
const LEARNERS = 300
const VIEWS = 90_000

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  Plans?: PlanNode[]
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)]
}

describe('the For You query plan at scale', () => {
  let dispose: () => Promise<void>
  let pool: pg.Pool
  let learner: string

  beforeAll(async () => {
    const database = await migratedDatabase('postgres')
    dispose = database.dispose
    pool = database.handle.pool
    // Written in bulk as the owner with triggers off (the counters are written directly),
    // then scored once, as the bench does.
    await pool.query(`
      insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
      select gen_random_uuid(), 'authenticated', 'authenticated', 'plan' || g || '@example.test', '', now(),
             '{"provider":"email","providers":["email"]}',
             jsonb_build_object('username', 'plan_' || g, 'role', case when g <= ${CREATORS} then 'creator' else 'user' end),
             now(), now()
        from generate_series(1, ${CREATORS + LEARNERS}) g`)
    await pool.query(`update public.profiles set is_verified = true where role = 'creator'`)
    await pool.query(`update public.profiles set field_of_interest = 'Physics' where role = 'user'`)
    await pool.query(`
      set session_replication_role = replica;
      create temporary table plan_creators as select row_number() over (order by id) as n, id from public.profiles where role = 'creator';
      create temporary table plan_learners as select row_number() over (order by id) as n, id from public.profiles where role = 'user';
      create temporary table plan_categories as select row_number() over (order by position) as n, id from public.categories;
      insert into public.videos (id, creator_id, title, type, category_id, status, source_path, mp4_path, duration_seconds,
                                 like_count, comment_count, quote_count, view_count, created_at)
      select v.id, c.id, 'Plan spark ' || v.g, 'spark', k.id, 'ready', c.id::text || '/videos/' || v.id::text || '.mp4',
             'videos/' || v.id::text || '/video.mp4', 30,
             v.g % 50, v.g % 7, v.g % 3, v.g % 400, now() - make_interval(hours => v.g % 2000)
        from (select g, gen_random_uuid() as id from generate_series(1, ${SPARKS}) g offset 0) v
        join plan_creators c on c.n = 1 + (v.g % ${CREATORS})
        join plan_categories k on k.n = 1 + (v.g % 18);
      create temporary table plan_sparks as select row_number() over (order by id) as n, id from public.videos;
      insert into public.video_views (video_id, viewer_id, viewer_key, viewed_hour, created_at)
      select s.id, l.id, l.id::text, date_trunc('hour', now()) - make_interval(hours => g / ${LEARNERS}),
             date_trunc('hour', now()) - make_interval(hours => g / ${LEARNERS})
        from generate_series(0, ${VIEWS - 1}) g
        join plan_learners l on l.n = 1 + (g % ${LEARNERS})
        join plan_sparks s on s.n = 1 + ((g::bigint * 7919) % ${SPARKS});
      insert into public.follows (follower_id, creator_id, created_at)
      select l.id, c.id, now() - interval '30 days'
        from plan_learners l join plan_creators c on c.n % 20 = l.n % 20;
      insert into public.video_likes (video_id, user_id, created_at)
      select s.id, l.id, now() - interval '1 day'
        from generate_series(0, ${VIEWS / 10 - 1}) g
        join plan_learners l on l.n = 1 + (g % ${LEARNERS})
        join plan_sparks s on s.n = 1 + ((g::bigint * 7919) % ${SPARKS})
      on conflict do nothing;
      set session_replication_role = origin;`)
    await pool.query('select public.rescore_sparks(null)')
    await pool.query('analyze')
    learner = (await pool.query<{ id: string }>(`select id from public.profiles where role = 'user' order by id limit 1`))
      .rows[0]!.id
  }, 120_000)

  afterAll(async () => {
    await dispose()
  })

  /** The plans of every statement run by `work` on one connection, as auto_explain logs them. */
  async function plansOf(work: (client: pg.PoolClient) => Promise<unknown>): Promise<PlanNode[]> {
    const client = await pool.connect()
    const plans: PlanNode[] = []
    const collect = (notice: { message?: string; severity?: string }) => {
      const text = notice.message ?? ''
      const start = text.indexOf('{')
      if (notice.severity === 'LOG' && text.includes('plan:') && start >= 0) {
        plans.push((JSON.parse(text.slice(start)) as { Plan: PlanNode }).Plan)
      }
    }
    try {
      await client.query(`load 'auto_explain'`)
      await client.query(`
        set auto_explain.log_min_duration = 0;
        set auto_explain.log_nested_statements = on;
        set auto_explain.log_format = json;
        set client_min_messages = log`)
      client.on('notice', collect)
      await work(client)
    } finally {
      client.off('notice', collect)
      await client.query('reset client_min_messages; reset auto_explain.log_min_duration')
      client.release()
    }
    return plans
  }

  /** For You's ranking as the server asks for it: as the learner, or for a visitor as the service role. */
  async function rank(client: pg.PoolClient, who: string | null, rows: number) {
    await client.query('begin')
    try {
      const claims = who ? claimsFor(who) : { role: 'service_role' }
      await client.query(`select set_config('request.jwt.claims', $1, true), set_config('role', $2, true)`, [
        JSON.stringify(claims),
        who ? 'authenticated' : 'service_role',
      ])
      return (await client.query('select * from public.for_you_sparks(now(), $1)', [rows])).rows
    } finally {
      await client.query('rollback')
    }
  }

  const seqScansOfViews = (plans: PlanNode[]) =>
    plans.flatMap(nodesOf).filter((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'video_views')

  it('scans no view row sequentially: page 1, page 3, the deepest page, a visitor', async () => {
    let ranked = 0
    const plans = await plansOf(async (client) => {
      // More than five calls: PL/pgSQL may switch to generic plans after five.
      for (let i = 0; i < 3; i++) {
        ranked += (await rank(client, learner, 8 + 40)).length
        ranked += (await rank(client, learner, 24 + 40)).length
        ranked += (await rank(client, learner, 1000 + 50 + 40)).length
        ranked += (await rank(client, null, 8 + 40)).length
      }
    })
    expect(ranked).toBeGreaterThan(3 * (48 + 64 + 1000 + 48))
    const nodes = plans.flatMap(nodesOf)
    expect(seqScansOfViews(plans)).toEqual([])
    // The plans looked at are the function's own: the views through their viewer indexes.
    const viewNodes = nodes.filter(
      (node) => node['Relation Name'] === 'video_views' || node['Index Name']?.startsWith('video_views_'),
    )
    expect(new Set(viewNodes.map((node) => node['Node Type']))).toSatisfy((types: Set<string>) =>
      [...types].every((type) => ['Index Only Scan', 'Index Scan', 'Bitmap Heap Scan', 'Bitmap Index Scan'].includes(type)),
    )
    // Probing the learner's views clip by clip, or reading their views once: the planner's choice.
    const viewIndexes = viewNodes.map((node) => node['Index Name']).filter(Boolean)
    expect(viewIndexes.length).toBeGreaterThan(0)
    for (const index of viewIndexes) expect(['video_views_viewer_video_idx', 'video_views_viewer_recent_idx']).toContain(index)
    // (At this size the planner may read all 3,000 scores and sort them; at 100,000 the
    // bench's plans read the candidate lists by index.)
    expect(nodes.some((node) => node['Relation Name'] === 'spark_scores')).toBe(true)
  })

  it('would see a sequential scan of the views: without their viewer indexes the same query scans them', async () => {
    const plans = await plansOf(async (client) => {
      await client.query('begin')
      try {
        await client.query('drop index public.video_views_viewer_video_idx, public.video_views_viewer_recent_idx')
        await client.query(`select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`, [
          JSON.stringify(claimsFor(learner)),
        ])
        await client.query('select * from public.for_you_sparks(now(), 48)')
      } finally {
        await client.query('rollback')
      }
    })
    expect(seqScansOfViews(plans).length).toBeGreaterThan(0)
  })
})
