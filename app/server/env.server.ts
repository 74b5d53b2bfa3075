import { z } from 'zod'

/**
 * Every setting Lumen reads, validated once at boot. `.env.example` documents
 * each one. With none set, `npm start` runs the embedded mode.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** A PostgreSQL 15+ server (or Supabase's). Unset: the embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
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
   * Which direct peers may name the client's address in X-Forwarded-For (rate limits):
   * `loopback` (default: the app calling its own stand-in), `none`, or a comma-separated list of IPs.
   */
  TRUSTED_PROXY: z.string().default('loopback'),
  /**
   * Origins (comma-separated, e.g. `https://app.example,https://admin.example`) whose pages may call
   * /api from the browser (CORS, without credentials). Unset: none — same-origin and non-browser clients only.
   */
  API_CORS_ORIGINS: z.string().default(''),
  /** Load the demo accounts on boot when the database has no users yet (embedded mode only; default on). */
  SEED_DEMO_DATA: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true')),
})

export type Env = z.infer<typeof envSchema>

let cached: Env | undefined

export function getEnv(): Env {
  cached ??= parseEnv(process.env)
  return cached
}

/** After `server.ts` fills in the stand-in's settings. */
export function reloadEnv(): Env {
  cached = undefined
  return getEnv()
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
