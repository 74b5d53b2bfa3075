import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { parse } from 'smol-toml'
import { z } from 'zod'
import { projectRoot } from '../ops/paths'

/**
 * The parts of `supabase/config.toml` the stand-in honours, with Supabase
 * CLI's defaults where the file is silent — the same file configures a real
 * `supabase start`.
 */
const configSchema = z.object({
  auth: z
    .object({
      site_url: z.string().default('http://localhost:3000'),
      additional_redirect_urls: z.array(z.string()).default([]),
      jwt_expiry: z.number().int().positive().default(3600),
      enable_refresh_token_rotation: z.boolean().default(true),
      refresh_token_reuse_interval: z.number().int().nonnegative().default(10),
      enable_signup: z.boolean().default(true),
      minimum_password_length: z.number().int().positive().default(6),
      rate_limit: z
        .object({
          email_sent: z.number().int().positive().default(2),
          sign_in_sign_ups: z.number().int().positive().default(30),
          token_refresh: z.number().int().positive().default(150),
          token_verifications: z.number().int().positive().default(30),
        })
        .default({}),
    })
    .passthrough()
    .default({}),
  storage: z
    .object({ file_size_limit: z.string().default('50MiB') })
    .passthrough()
    .default({}),
  functions: z.record(z.object({ verify_jwt: z.boolean().default(true) }).passthrough()).default({}),
}).passthrough()

export type StackConfig = z.infer<typeof configSchema>

export async function loadStackConfig(file = path.join(projectRoot, 'supabase/config.toml')): Promise<StackConfig> {
  let raw: unknown = {}
  try {
    raw = parse(await readFile(file, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  return configSchema.parse(raw)
}
