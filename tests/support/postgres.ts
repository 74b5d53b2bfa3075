import { randomBytes } from 'node:crypto'
import pg from 'pg'

/** The PostgreSQL 15 server the integration suites use; `npm test` sets it. */
export function testServerUrl(): string {
  const url = process.env.TEST_DATABASE_URL
  if (!url) {
    throw new Error(
      'TEST_DATABASE_URL is not set. Run the suites through `npm test`, which starts PostgreSQL, or set it to a superuser URL.',
    )
  }
  return url
}

export interface ScratchDatabase {
  url: string
  name: string
  drop(): Promise<void>
}

/** A new empty database on the test server (or a copy of `template`), dropped again by `drop()`. */
export async function createScratchDatabase(label: string, template?: string): Promise<ScratchDatabase> {
  const serverUrl = testServerUrl()
  const name = `lumen_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`)
  } finally {
    await admin.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl })
      await client.connect()
      try {
        await client.query(`drop database if exists ${name} with (force)`)
      } finally {
        await client.end()
      }
    },
  }
}
