import type { ColumnType } from 'kysely'
import type { Database } from './database.types'

/**
 * Kysely's view of the `public` schema, derived from the `Database` type that
 * `supabase gen types` writes (`npm run db:types`), so supabase-js and Kysely
 * share one source of truth. A column missing from `Insert` is generated
 * (never written); an optional one has a default.
 */
type PublicTables = Database['public']['Tables']

type KyselyTable<T extends { Row: object; Insert: object; Update: object }> = {
  [C in keyof T['Row']]: ColumnType<
    T['Row'][C],
    C extends keyof T['Insert'] ? T['Insert'][C] : never,
    C extends keyof T['Update'] ? Exclude<T['Update'][C], undefined> : never
  >
}

export type DB = {
  [Table in keyof PublicTables]: KyselyTable<PublicTables[Table]>
}

export type { Database }
