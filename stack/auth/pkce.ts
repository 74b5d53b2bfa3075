import { randomUUID } from 'node:crypto'
import type { Db } from './db'
import { one } from './db'
import { unprocessable, validationFailed } from './errors'
import type { ChallengeMethod } from './tokens'

/**
 * PKCE flows in `auth.flow_state`: a request that starts an email flow with
 * `code_challenge` gets a flow state; following the email link issues its
 * `auth_code` (GET /verify redirects with `?code=`), and
 * POST /token?grant_type=pkce trades the code plus the verifier for a session.
 */
export interface PkceParams {
  method: ChallengeMethod
  challenge: string
}

/** GoTrue's `validatePKCEParams`: both or neither; undefined means no PKCE. */
export function pkceParams(challenge: string | undefined, method: string | undefined): PkceParams | undefined {
  if (!challenge && !method) return undefined
  if (!challenge || !method) throw validationFailed('PKCE flow requires code_challenge_method and code_challenge')
  if (!/^[a-zA-Z0-9._~-]{43,128}$/.test(challenge)) {
    throw validationFailed('code challenge has to be between 43 and 128 characters')
  }
  const normalised = method.toLowerCase()
  if (normalised !== 's256' && normalised !== 'plain') throw validationFailed(`unsupported code_challenge method "${method}"`)
  return { method: normalised, challenge }
}

export async function createFlowState(db: Db, userId: string, pkce: PkceParams, authenticationMethod: string): Promise<void> {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
       created_at, updated_at, authentication_method)
     values ($1, $2, $3, $4, $5, $6, now(), now(), $6)`,
    [randomUUID(), userId, randomUUID(), pkce.method, pkce.challenge, authenticationMethod],
  )
}

/** GoTrue's `issueAuthCode`: the newest flow of this kind for the user gets its code issued. */
export async function issueAuthCode(db: Db, userId: string, authenticationMethod: string): Promise<string> {
  const flow = await one<{ id: string; auth_code: string }>(
    db,
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
     where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                 order by created_at desc limit 1)
     returning id, auth_code`,
    [userId, authenticationMethod],
  )
  if (!flow) throw unprocessable('flow_state_not_found', 'No valid flow state found for user.')
  return flow.auth_code
}
