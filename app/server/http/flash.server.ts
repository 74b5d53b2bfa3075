import { createCookieSessionStorage, redirect } from '@remix-run/node'
import { getEnv, publicUrl } from '../env.server'

/**
 * One-time messages that survive a redirect ("Profile updated successfully!"),
 * so forms give feedback without JavaScript: the action redirects with a
 * flash, the next page shows it once.
 */
export interface Flash {
  kind: 'success' | 'error' | 'info'
  message: string
}

const FLASH_COOKIE = 'lumen_flash'

type FlashStorage = ReturnType<typeof createCookieSessionStorage<Record<string, never>, { flash: Flash }>>
let storage: FlashStorage | undefined

function flashStorage() {
  const env = getEnv()
  if (!env.SESSION_SECRET) throw new Error('SESSION_SECRET must be set (server.ts derives one for the stand-in)')
  storage ??= createCookieSessionStorage<Record<string, never>, { flash: Flash }>({
    cookie: {
      name: FLASH_COOKIE,
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: publicUrl(env).startsWith('https://'),
      secrets: [env.SESSION_SECRET],
    },
  })
  return storage
}

/** A redirect that shows `flash` on the next page; `headers` (e.g. session cookies) are kept. */
export async function redirectWithFlash(url: string, flash: Flash, headers: HeadersInit = {}) {
  const session = await flashStorage().getSession()
  session.flash('flash', flash)
  const merged = new Headers(headers)
  merged.append('Set-Cookie', await flashStorage().commitSession(session))
  return redirect(url, { headers: merged })
}

/** The pending flash, if any, and the header that clears it. */
export async function readFlash(request: Request): Promise<{ flash: Flash | null; headers: Headers }> {
  const cookie = request.headers.get('Cookie')
  // Nearly every request has no flash: no cookie to parse or verify.
  if (!cookie?.includes(`${FLASH_COOKIE}=`)) return { flash: null, headers: new Headers() }
  const session = await flashStorage().getSession(cookie)
  const flash = (session.get('flash') as Flash | undefined) ?? null
  const headers = new Headers()
  if (flash) headers.append('Set-Cookie', await flashStorage().commitSession(session))
  return { flash, headers }
}
