import { execFileSync } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import express from 'express'
import { SignJWT } from 'jose'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../../../ops/paths'
import { loadStackConfig } from '../../../stack/config'
import type { StackContext } from '../../../stack/context'
import { createFunctionsRouter } from '../../../stack/functions/router'
import { loadOrCreateKeys } from '../../../stack/keys'
import { Mailbox } from '../../../stack/mailbox'

/**
 * The edge-functions runner on its own (the stand-in's `/functions/v1`):
 * small test functions in a temporary functions directory, served by the real
 * Deno runtime, checked against `supabase functions serve`'s gateway
 * behaviour — routing, verify_jwt, streaming, the environment, permissions,
 * boot failures, crashes and clean shutdown. The Supabase-facing function of
 * the product is covered by functions-application-reviewed.test.ts; here we
 * only type-check it, which `deno run` never does.
 */
const FUNCTIONS: Record<string, string> = {
  echo: `Deno.serve(async (request) => {
    const url = new URL(request.url)
    const body = await request.text()
    return Response.json({
      method: request.method,
      path: url.pathname + url.search,
      contentType: request.headers.get('content-type'),
      custom: request.headers.get('x-custom'),
      forwardedFor: request.headers.get('x-forwarded-for'),
      bodyLength: body.length,
      bodyStart: body.slice(0, 20),
    }, { status: url.searchParams.has('teapot') ? 418 : 200, headers: { 'x-from-function': 'yes' } })
  })`,
  open: `Deno.serve(() => new Response('open to all'))`,
  cors: `Deno.serve((request) => request.method === 'OPTIONS'
    ? new Response(null, { status: 204, headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'authorization, content-type' } })
    : new Response('cors ok'))`,
  'fetch-export': `export default { fetch: (request: Request) => new Response('fetch export at ' + new URL(request.url).pathname) }`,
  'with-options': `Deno.serve({ port: 8000, hostname: '0.0.0.0' }, () => new Response('own options ignored'))`,
  shared: `import { greeting } from '../_shared/greeting.ts'
  Deno.serve(() => new Response(greeting))`,
  env: `Deno.serve(() => Response.json({ env: Deno.env.toObject(), unset: Deno.env.get('NOT_SET_ANYWHERE') ?? null }))`,
  permissions: `async function attempt(work: () => Promise<unknown>) {
    try { await work(); return 'allowed' } catch (error) { return error instanceof Deno.errors.NotCapable ? 'denied' : String(error) }
  }
  Deno.serve(async () => Response.json({
    readOwnDir: await attempt(() => Deno.readTextFile(new URL('./index.ts', import.meta.url))),
    readOutside: await attempt(() => Deno.readTextFile('/etc/hostname')),
    write: await attempt(() => Deno.writeTextFile(new URL('./written.txt', import.meta.url), 'x')),
    run: await attempt(() => new Deno.Command('/bin/true').output()),
  }))`,
  crash: `Deno.serve((request) => {
    if (new URL(request.url).searchParams.has('die')) Deno.exit(1)
    return Response.json({ pid: Deno.pid })
  })`,
  stream: `let release: () => void = () => {}
  const released = new Promise<void>((resolve) => { release = resolve })
  Deno.serve((request) => {
    if (new URL(request.url).pathname.endsWith('/release')) { release(); return new Response('released') }
    const encoder = new TextEncoder()
    return new Response(new ReadableStream({
      async start(controller) {
        controller.enqueue(encoder.encode('first;'))
        await released
        controller.enqueue(encoder.encode('second'))
        controller.close()
      },
    }))
  })`,
  edited: `Deno.serve(() => new Response('version 1'))`,
  broken: `throw new Error('broken at boot')`,
  'no-server': `export const nothing = 1`,
  slow: `await new Promise((resolve) => setTimeout(resolve, 1500))
  Deno.serve(() => new Response('slow but up'))`,
}

let functionsDir: string
let dataDir: string
let ctx: StackContext
let url: string
let close: () => Promise<void>

async function serve(context: StackContext, bootTimeoutMs = 20_000) {
  const functions = await createFunctionsRouter(context, { functionsDir, bootTimeoutMs })
  const app = express()
  app.use('/functions/v1', functions.router)
  const http = createServer(app)
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/functions/v1`,
    async close() {
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
      await functions.close()
    },
  }
}

/** Deno processes that are children of this test process. */
function denoChildren(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' })
  return out
    .split('\n')
    .filter((line) => line.trim().endsWith('deno'))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
}

beforeAll(async () => {
  functionsDir = await mkdtemp(path.join(tmpdir(), 'lumen-functions-'))
  for (const [name, source] of Object.entries(FUNCTIONS)) {
    await mkdir(path.join(functionsDir, name))
    await writeFile(path.join(functionsDir, name, 'index.ts'), source)
  }
  await mkdir(path.join(functionsDir, '_shared'))
  await writeFile(path.join(functionsDir, '_shared', 'greeting.ts'), `export const greeting = 'hello from _shared'`)
  await writeFile(path.join(functionsDir, '.env'), 'GREETING=from dotenv\nSUPABASE_URL=http://ignored.example\n')

  dataDir = await mkdtemp(path.join(tmpdir(), 'lumen-functions-data-'))
  const config = await loadStackConfig()
  config.functions = { ...config.functions, open: { verify_jwt: false } }
  const mailbox = new Mailbox(path.join(dataDir, 'mailbox'))
  ctx = {
    // A server pool that never connects: the runner only reads its URL for SUPABASE_DB_URL.
    pool: new pg.Pool({ connectionString: 'postgres://lumen:secret@127.0.0.1:5432/lumen_functions' }),
    dataDir,
    publicUrl: 'http://127.0.0.1:9',
    keys: await loadOrCreateKeys(dataDir),
    mode: 'embedded',
    mailbox,
    mail: mailbox,
    config,
    trustedProxy: 'loopback',
  }
  const running = await serve(ctx)
  url = running.url
  close = running.close
})

afterAll(async () => {
  await close?.()
  await ctx?.pool.end()
  await rm(functionsDir, { recursive: true, force: true })
  await rm(dataDir, { recursive: true, force: true })
})

const bearer = () => ({ Authorization: `Bearer ${ctx.keys.anonKey}` })

describe('routing', () => {
  it('passes method, path from /<name>, query, headers and body through, and the answer back', async () => {
    const response = await fetch(`${url}/echo/deeper/path?x=1&y=two`, {
      method: 'PUT',
      headers: { ...bearer(), 'Content-Type': 'text/plain', 'X-Custom': 'kept' },
      body: 'hello body',
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-from-function')).toBe('yes')
    expect(await response.json()).toMatchObject({
      method: 'PUT',
      path: '/echo/deeper/path?x=1&y=two',
      contentType: 'text/plain',
      custom: 'kept',
      forwardedFor: '127.0.0.1',
      bodyLength: 10,
    })
  })

  it("keeps the function's status code", async () => {
    const response = await fetch(`${url}/echo?teapot`, { headers: bearer() })
    expect(response.status).toBe(418)
  })

  it('streams a large request body to the function', async () => {
    const body = 'x'.repeat(8 * 1024 * 1024)
    const response = await fetch(`${url}/echo`, { method: 'POST', headers: bearer(), body })
    expect(await response.json()).toMatchObject({ bodyLength: body.length, bodyStart: 'x'.repeat(20) })
  })

  it('streams the answer: the first chunk arrives while the function is still writing', async () => {
    const response = await fetch(`${url}/stream`, { headers: bearer() })
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toBe('first;')
    expect(await (await fetch(`${url}/stream/release`, { headers: bearer() })).text()).toBe('released')
    let rest = ''
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value)
    expect(rest).toBe('second')
  })

  it('serves a module whose default export has fetch()', async () => {
    const response = await fetch(`${url}/fetch-export/here`, { headers: bearer() })
    expect(await response.text()).toBe('fetch export at /fetch-export/here')
  })

  it("ignores a function's own port and hostname, as edge-runtime does", async () => {
    expect(await (await fetch(`${url}/with-options`, { headers: bearer() })).text()).toBe('own options ignored')
  })

  it('lets a function import from _shared', async () => {
    expect(await (await fetch(`${url}/shared`, { headers: bearer() })).text()).toBe('hello from _shared')
  })

  it('answers 404 "Function not found" for an unknown function', async () => {
    const response = await fetch(`${url}/nope`, { headers: bearer() })
    expect(response.status).toBe(404)
    expect(await response.text()).toBe('Function not found')
  })

  it('answers 404 for names that are not function names: _shared, dot segments, encoded slashes, nothing', async () => {
    for (const name of ['_shared', '%2e%2e', '..%2Fecho', 'echo%2F', '']) {
      const response = await fetch(`${url}/${name}`, { headers: bearer() })
      expect(response.status, name).toBe(404)
    }
  })
})

describe('verify_jwt', () => {
  it('refuses a request without Authorization: 401 with the main worker message', async () => {
    const response = await fetch(`${url}/echo`)
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ msg: 'Error: Missing authorization header' })
  })

  it('refuses a header that is not a Bearer token', async () => {
    const response = await fetch(`${url}/echo`, { headers: { Authorization: `Basic ${ctx.keys.anonKey}` } })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ msg: "Error: Auth header is not 'Bearer {token}'" })
  })

  it('refuses forged, expired and unsigned tokens with 401 {"msg":"Invalid JWT"}', async () => {
    const now = Math.floor(Date.now() / 1000)
    const sign = (secret: string, claims: Record<string, unknown>) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret))
    const forged = await sign('not-the-secret-not-the-secret-not-the-secret', { role: 'service_role', exp: now + 600 })
    const expired = await sign(ctx.keys.jwtSecret, { role: 'authenticated', sub: 'x', exp: now - 3600 })
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"role":"service_role"}').toString('base64url')}.`
    for (const token of [forged, expired, unsigned, 'garbage']) {
      const response = await fetch(`${url}/echo`, { headers: { Authorization: `Bearer ${token}` } })
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({ msg: 'Invalid JWT' })
    }
  })

  it('accepts the anon and service-role keys and a user token signed with the secret', async () => {
    const user = await new SignJWT({ role: 'authenticated', sub: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(ctx.keys.jwtSecret))
    for (const token of [ctx.keys.anonKey, ctx.keys.serviceRoleKey, user]) {
      const response = await fetch(`${url}/echo`, { headers: { Authorization: `Bearer ${token}` } })
      expect(response.status).toBe(200)
    }
  })

  it('serves a function with verify_jwt = false without any token', async () => {
    const response = await fetch(`${url}/open`)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('open to all')
  })

  it('passes OPTIONS through without a token, so the function answers CORS preflights', async () => {
    const response = await fetch(`${url}/cors`, { method: 'OPTIONS' })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('environment and permissions', () => {
  it('gives the Supabase variables and .env, and nothing of the Node process', async () => {
    const { env, unset } = (await (await fetch(`${url}/env`, { headers: bearer() })).json()) as {
      env: Record<string, string>
      unset: string | null
    }
    expect(env).toMatchObject({
      SUPABASE_URL: ctx.publicUrl,
      SUPABASE_ANON_KEY: ctx.keys.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: ctx.keys.serviceRoleKey,
      SUPABASE_DB_URL: 'postgres://lumen:secret@127.0.0.1:5432/lumen_functions',
      GREETING: 'from dotenv',
      MAIL_API_URL: `${ctx.publicUrl}/mailbox/api/send`,
      DENO_DIR: path.join(dataDir, 'deno'),
    })
    expect(unset).toBeNull()
    for (const leaked of ['HOME', 'TEST_DATABASE_URL', 'VITEST', 'NODE_ENV']) expect(env).not.toHaveProperty(leaked)
    // Deno sets PATH to its own Node-compatibility shims; the host's PATH stays out.
    expect(env.PATH).not.toContain(process.env.PATH)
  })

  it('lets a function read its own folder only, and neither write nor run programs', async () => {
    const allowed = await (await fetch(`${url}/permissions`, { headers: bearer() })).json()
    expect(allowed).toEqual({ readOwnDir: 'allowed', readOutside: 'denied', write: 'denied', run: 'denied' })
  })
})

describe('failures', () => {
  it('answers 500 WORKER_ERROR when the function dies mid-request, then serves the next request from a new process', async () => {
    const before = (await (await fetch(`${url}/crash`, { headers: bearer() })).json()) as { pid: number }
    const crashed = await fetch(`${url}/crash?die`, { headers: bearer() })
    expect(crashed.status).toBe(500)
    expect(await crashed.json()).toEqual({
      code: 'WORKER_ERROR',
      message: 'Function exited due to an error (please check logs)',
    })
    const after = await fetch(`${url}/crash`, { headers: bearer() })
    expect(after.status).toBe(200)
    expect(((await after.json()) as { pid: number }).pid).not.toBe(before.pid)
  })

  it('answers 503 BOOT_ERROR when the module throws while loading, and again on the next try', async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await fetch(`${url}/broken`, { headers: bearer() })
      expect(response.status).toBe(503)
      expect(await response.json()).toEqual({ code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' })
    }
  })

  it('answers 503 BOOT_ERROR for a module that never serves', async () => {
    expect((await fetch(`${url}/no-server`, { headers: bearer() })).status).toBe(503)
  })

  it('waits for a slow first boot', async () => {
    const response = await fetch(`${url}/slow`, { headers: bearer() })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('slow but up')
  })

  it('gives up on a boot slower than the timeout with 503, and leaves no process behind', async () => {
    const impatient = await serve(ctx, 300)
    const before = new Set(denoChildren())
    try {
      const response = await fetch(`${impatient.url}/slow`, { headers: bearer() })
      expect(response.status).toBe(503)
      expect(await response.json()).toMatchObject({ code: 'BOOT_ERROR' })
      await expect.poll(() => denoChildren().filter((pid) => !before.has(pid))).toEqual([])
    } finally {
      await impatient.close()
    }
  })
})

describe('development', () => {
  it('serves the new code after a function file changes, like functions serve --watch', async () => {
    expect(await (await fetch(`${url}/edited`, { headers: bearer() })).text()).toBe('version 1')
    await writeFile(path.join(functionsDir, 'edited', 'index.ts'), `Deno.serve(() => new Response('version 2'))`)
    await expect
      .poll(async () => (await fetch(`${url}/edited`, { headers: bearer() })).text(), { timeout: 10_000 })
      .toBe('version 2')
  })
})

describe('shutdown', () => {
  it('close() stops every Deno process it started', async () => {
    const own = await serve(ctx)
    const before = new Set(denoChildren())
    await fetch(`${own.url}/open`)
    await fetch(`${own.url}/echo`, { headers: bearer() })
    const started = denoChildren().filter((pid) => !before.has(pid))
    expect(started).toHaveLength(2)
    await own.close()
    const left = new Set(denoChildren())
    expect(started.filter((pid) => left.has(pid))).toEqual([])
  })
})

describe('the project\'s functions', () => {
  it('type-check under Deno, as does the boot module (tsc leaves supabase/functions out)', async () => {
    const functions = path.join(projectRoot, 'supabase/functions')
    const entries = (await readdir(functions, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
      .map((entry) => path.join(functions, entry.name, 'index.ts'))
    expect(entries.length).toBeGreaterThan(0)
    const deno = (createRequire(import.meta.url)('deno/install_api.cjs') as { runInstall(): string }).runInstall()
    const output = execFileSync(
      deno,
      ['check', '--no-config', '--quiet', path.join(projectRoot, 'stack/functions/deno-boot.ts'), ...entries],
      { encoding: 'utf8', env: { ...process.env, DENO_DIR: path.join(dataDir, 'deno-check'), NO_COLOR: '1' } },
    )
    expect(output).toBe('')
  })
})
