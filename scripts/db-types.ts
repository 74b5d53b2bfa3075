/**
 * `npm run db:types`: migrates a scratch database on the test server and
 * writes `db/database.types.ts` with `supabase gen types`, the same
 * generator a Supabase project uses. The integration suite fails when the
 * committed file differs from what the migrations produce.
 */
import { writeFile } from 'node:fs/promises'
import { generateDatabaseTypes, typesFile } from '../tests/support/database-types'

const source = await generateDatabaseTypes()
await writeFile(typesFile, source)
console.log(`wrote ${typesFile}`)
