import { existsSync } from 'node:fs'
import path from 'node:path'

/**
 * The repository's root folder: the nearest one at or above `from` holding `package.json`. Modules find
 * their files (migrations, the seed, `supabase/`, the Deno boot script) from it rather than from their own
 * folder, which differs between the sources (`stack/`, `db/`) and the bundled server (`build/lumen/`).
 */
export function rootAbove(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir
    if (path.dirname(dir) === dir) throw new Error(`no package.json at or above ${from}`)
  }
}

export const projectRoot = rootAbove(import.meta.dirname)
