import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { redirectWithHeaders } from '~/server/http/responses.server'
import { getSession, returnTo } from '~/server/session.server'

/**
 * Every path no route claims (docs/product.md, Screens: "Any other path redirects to
 * /login"). The login-required routes of the spec that are not built yet land
 * here too; a visitor on one is sent to sign in with the way back remembered,
 * as the finished route will do, so links to them already behave right.
 */
const LOGIN_REQUIRED = /^\/(dashboard|upload|feed|sparks|sparks-reels|profile|create-quote|admin|video\/[^/]+)\/?$/

async function toLogin({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  const { user, headers } = await getSession(request, context)
  const path = new URL(request.url).pathname
  if (!user && LOGIN_REQUIRED.test(path)) {
    return redirectWithHeaders(`/login?redirectTo=${encodeURIComponent(returnTo(request))}`, headers)
  }
  return redirectWithHeaders('/login', headers)
}

export const loader = (args: LoaderFunctionArgs) => toLogin(args)
export const action = (args: ActionFunctionArgs) => toLogin(args)
