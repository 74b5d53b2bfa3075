import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { SignJWT } from 'jose'

/**
 * The stand-in's secrets: one JWT secret and the two API keys signed with it,
 * made once per data directory and kept there, so no two installs share a
 * secret and sessions survive restarts.
 */
export interface StackKeys {
  jwtSecret: string
  anonKey: string
  serviceRoleKey: string
}

const TEN_YEARS = 10 * 365 * 24 * 3600

export async function loadOrCreateKeys(dataDir: string, issuer = 'lumen-stand-in'): Promise<StackKeys> {
  const file = path.join(dataDir, 'keys.json')
  try {
    return JSON.parse(await readFile(file, 'utf8')) as StackKeys
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const jwtSecret = randomBytes(48).toString('base64url')
  const keys: StackKeys = {
    jwtSecret,
    anonKey: await signApiKey(jwtSecret, 'anon', issuer),
    serviceRoleKey: await signApiKey(jwtSecret, 'service_role', issuer),
  }
  await mkdir(dataDir, { recursive: true })
  await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600, flag: 'wx' }).catch(async (error) => {
    // Another process made them first: theirs win.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return
    throw error
  })
  return JSON.parse(await readFile(file, 'utf8')) as StackKeys
}

function signApiKey(secret: string, role: 'anon' | 'service_role', issuer: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setIssuedAt(now)
    .setExpirationTime(now + TEN_YEARS)
    .sign(new TextEncoder().encode(secret))
}

/**
 * The developer mailbox's secret: random per data directory (mode 0600),
 * printed by `npm start` and `npm run stack:status`. Reading the mailbox
 * needs it, so reset links stay with whoever runs the machine.
 */
export async function loadOrCreateMailboxSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'mailbox.key')
  try {
    return (await readFile(file, 'utf8')).trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(dataDir, { recursive: true })
  await writeFile(file, randomBytes(24).toString('base64url'), { mode: 0o600, flag: 'wx' }).catch((error) => {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return
    throw error
  })
  return (await readFile(file, 'utf8')).trim()
}
