import { z } from 'zod'

/**
 * Every setting Lumen reads, validated once at boot, in one schema: the app
 * (through app/server/env.server.ts), the stand-in, the media worker, the
 * scripts and ops/ all read their settings here, never `process.env` itself.
 * `.env.example` documents each one. With none set, `npm start` runs the
 * embedded mode. (Test-only variables — TEST_DATABASE_URL, E2E_*, CHROMIUM_PATH,
 * CONTRACT_SUPABASE_* — belong to the test tooling, which reads its own.)
 */
const milliseconds = (min: number) => z.coerce.number().int().min(min)
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** A PostgreSQL 15+ server (or Supabase's). Unset: the embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /**
   * `off` behind a transaction-mode pooler (PgBouncer, Supavisor), which cannot keep a connection's
   * prepared statements (ADR 0063). Default: on, but off when DATABASE_URL's port is 6543 (Supabase's
   * transaction-mode pooler).
   */
  DATABASE_PREPARED_STATEMENTS: z.enum(['on', 'off']).optional(),
  /** Where the embedded mode keeps its database, files and keys. */
  DATA_DIR: z.string().default('.data'),
  /** The URL visitors use; the stand-in serves Supabase's APIs under it. Default http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  /**
   * A Supabase project (hosted, or `supabase start`). Unset: Lumen runs its own
   * stand-in on PUBLIC_URL and fills these four in at boot.
   */
  SUPABASE_URL: z.string().url().optional(),
  SUPABASE_ANON_KEY: z.string().min(1).optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
  SUPABASE_JWT_SECRET: z.string().min(1).optional(),
  /** Signs the flash-message cookie. Unset with the stand-in: derived from its JWT secret. */
  SESSION_SECRET: z.string().min(32).optional(),
  /** Where media jobs run: in this process (embedded default) or off (run `npm run worker`; server default). */
  MEDIA_WORKER: z.enum(['in-process', 'off']).optional(),
  /** The site's address for links in emails; default PUBLIC_URL. */
  SITE_URL: z.string().url().optional(),
  /** Server mode: the SMTP server emails go through (`smtp://user:pass@host:587`, `smtps://…:465`). */
  SMTP_URL: z.string().url().optional(),
  /** The From header of those emails. */
  SMTP_FROM: z.string().default('Lumen <no-reply@localhost>'),
  /**
   * Signs the unsubscribe links of notification emails (32+ characters). Unset: derived
   * from SUPABASE_JWT_SECRET (the stand-in's, generated once, in DATA_DIR/keys.json).
   */
  UNSUBSCRIBE_SECRET: z.string().min(32).optional(),
  /**
   * Which direct peers may name the client's address in X-Forwarded-For (rate limits):
   * `loopback` (default: the app calling its own stand-in), `none`, or a comma-separated list of IPs.
   */
  TRUSTED_PROXY: z.string().default('loopback'),
  /**
   * Origins (comma-separated, e.g. `https://app.example,https://admin.example`) whose pages may call
   * /api from the browser (CORS, without credentials). Unset: none — same-origin and non-browser clients only.
   */
  API_CORS_ORIGINS: z.string().default(''),
  /** Server mode: how many processes serve (one per core by default). */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /** After SIGTERM, how long in-flight requests may take before their connections are closed. */
  SHUTDOWN_GRACE_MS: milliseconds(0).default(10_000),
  /** The JSON logs' level on stdout. */
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).optional(),
  /** Where `npm run build` writes and `npm start` serves from. */
  LUMEN_BUILD_DIR: z.string().min(1).default('build'),
  /** `npm run worker`: jobs at once, its name in media_jobs.locked_by, and the grace period on SIGTERM. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  WORKER_ID: z.string().min(1).max(200).optional(),
  WORKER_STOP_GRACE_MS: milliseconds(0).default(20_000),
  /** How long a job stays a worker's without its heartbeat. */
  WORKER_LEASE_MS: milliseconds(1_000).optional(),
  /** The first retry's backoff after a failed attempt (doubling). */
  WORKER_RETRY_BASE_MS: milliseconds(100).optional(),
  /** How often an idle worker looks for jobs. */
  WORKER_POLL_MS: milliseconds(100).optional(),
  /** ffmpeg/ffprobe to use (media/tools.ts); default the system's on PATH, else npm's. */
  FFMPEG_PATH: z.string().min(1).optional(),
  FFPROBE_PATH: z.string().min(1).optional(),
  /** Automatic captions (media/speech.ts): `off` turns them off; the recogniser and its model. */
  AUTO_CAPTIONS: z
    .string()
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(['on', 'off']))
    .default('on'),
  POCKETSPHINX_BIN: z.string().min(1).optional(),
  POCKETSPHINX_MODEL_DIR: z.string().min(1).optional(),
  /** Load the demo accounts on boot when the database has no users yet (embedded mode only; default on). */
  SEED_DEMO_DATA: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true')),
})

export type Env = z.infer<typeof envSchema>

/** The name of every setting (each one documented in .env.example). */
export const SETTING_NAMES = Object.keys(envSchema.shape) as Array<keyof Env>

let cached: { env: Env; version: number } | undefined

/**
 * Settings given by the process itself rather than the environment (the stand-in's URL and keys).
 * On `globalThis`, because this module is loaded twice in production: by server.ts from source and
 * inside the Remix build, and both must see them.
 */
interface Supplied {
  settings: Partial<Record<keyof Env, string>>
  version: number
}
const SUPPLIED = Symbol.for('lumen.supplied-settings')
function supplied(): Supplied {
  const store = globalThis as typeof globalThis & { [SUPPLIED]?: Supplied }
  store[SUPPLIED] ??= { settings: {}, version: 0 }
  return store[SUPPLIED]
}

export function getEnv(): Env {
  const { settings, version } = supplied()
  if (cached?.version !== version) cached = { env: parseEnv({ ...process.env, ...settings }), version }
  return cached.env
}

/**
 * The stand-in's settings, filled in by `server.ts` at boot once its keys exist: parsed by the same
 * schema as the environment, never written into `process.env`.
 */
export function supplySettings(settings: Partial<Record<keyof Env, string>>): Env {
  const current = supplied()
  current.settings = { ...current.settings, ...settings }
  current.version++
  return getEnv()
}

/** Parses again (tests that change `process.env`). */
export function reloadEnv(): Env {
  cached = undefined
  return getEnv()
}

/** One setting, parsed by its field of the schema without parsing the rest (for modules loaded before boot, like the logger). */
export function setting<K extends keyof Env>(
  name: K,
  source: Record<string, string | undefined> = process.env,
): Env[K] | undefined {
  const parsed = envSchema.shape[name].safeParse(source[name])
  return parsed.success ? (parsed.data as Env[K]) : undefined
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(source)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n')
    throw new Error(`Invalid environment:\n${problems}\nSee .env.example for every setting.`)
  }
  return parsed.data
}

export function isEmbedded(env: Env = getEnv()): boolean {
  return !env.DATABASE_URL
}

/** Whether statements marked `preparedAs` (db/kysely.ts) are prepared once per connection (ADR 0063). */
export function usesPreparedStatements(env: Env = getEnv()): boolean {
  if (env.DATABASE_PREPARED_STATEMENTS) return env.DATABASE_PREPARED_STATEMENTS === 'on'
  return !env.DATABASE_URL || new URL(env.DATABASE_URL).port !== '6543'
}

/** Whether Lumen serves Supabase's APIs itself (no SUPABASE_URL given). */
export function usesStandIn(env: Env = getEnv()): boolean {
  return !env.SUPABASE_URL
}

export function publicUrl(env: Env = getEnv()): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '')
}

/**
 * The site's address for links a visitor copies (the share box): SITE_URL,
 * else PUBLIC_URL, else the origin the visitor's request came to. Emails never
 * use the request's origin (ADR 0012): a page link is shown only to the
 * visitor who asked.
 */
export function siteUrlFor(requestUrl: string, env: Env = getEnv()): string {
  return (env.SITE_URL ?? env.PUBLIC_URL ?? new URL(requestUrl).origin).replace(/\/$/, '')
}
