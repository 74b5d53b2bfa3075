import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { generateDatabaseTypes, typesFile } from '../support/database-types'

describe('db/database.types.ts', () => {
  it('matches what `supabase gen types` makes of the migrations (run `npm run db:types` after changing them)', async () => {
    const [committed, generated] = await Promise.all([readFile(typesFile, 'utf8'), generateDatabaseTypes()])
    expect(committed).toBe(generated)
  })
})
