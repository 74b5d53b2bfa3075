/**
 * `npm run create-admin`: the first admin of a server install (DATABASE_URL),
 * or of the embedded database while `npm start` is stopped. The account is
 * made as the stand-in's `POST /admin/users` makes one (auth.users and its
 * identity, bcrypt as GoTrue keeps it; the migrations' trigger creates the
 * profile), then its profile becomes admin — roles never come from metadata.
 *
 *   npm run create-admin -- --email ada@example.com --username ada --password '…'
 *
 * Missing values are asked for (the password without echo). The password
 * must score "strong" on the spec's scale (8+ characters with at least three
 * of: upper case, lower case, digit, symbol).
 */
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { getEnv } from '../ops/env'
import { passwordStrength } from '../app/lib/password-strength'
import { openDatabase } from '../db/connect'
import { migrate } from '../db/migrate'
import { hashPassword } from '../stack/auth/passwords'
import { inTransaction } from '../stack/auth/db'
import { createUser, emailIdentityData, findUserByEmail, validateEmail } from '../stack/auth/users'

const MAX_PASSWORD_BYTES = 72
const DEMO_PASSWORD = 'Lumen-demo-2026'

/** Why `password` may not be an admin's, or undefined when it may. */
export function adminPasswordProblem(password: string): string | undefined {
  if (password === DEMO_PASSWORD) return "That is the demo accounts' password, published in the README"
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) return `Password cannot be longer than ${MAX_PASSWORD_BYTES} bytes`
  const { score, label } = passwordStrength(password)
  if (password.length < 8 || score < 4)
    return `${label || 'Password is required'}: an admin needs 8+ characters with upper case, lower case, a digit or a symbol (score 4 of 5)`
  return undefined
}

function ask(question: string, hidden = false): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY })
  if (hidden && process.stdin.isTTY) {
    // Echo nothing of what is typed after the question.
    const write = (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput
    ;(rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = (text: string) => {
      if (text.startsWith(question)) write.call(rl, text)
    }
  }
  return new Promise((resolve) =>
    rl.question(question, (answer) => {
      rl.close()
      if (hidden && process.stdin.isTTY) process.stdout.write('\n')
      resolve(answer.trim())
    }),
  )
}

async function main() {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, username: { type: 'string' }, password: { type: 'string' } },
  })
  const email = validateEmail(values.email ?? (await ask('Email: ')))
  const username = values.username ?? (await ask('Username: '))
  if (!/^[A-Za-z0-9._-]{3,30}$/.test(username)) throw new Error('Username: 3 to 30 letters, digits, dots, dashes or underscores')
  const password = values.password ?? (await ask('Password: ', true))
  const problem = adminPasswordProblem(password)
  if (problem) throw new Error(problem)

  const env = getEnv()
  const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: `${env.DATA_DIR}/pglite` })
  try {
    await migrate(handle.pool)
    if (await findUserByEmail(handle.pool, email)) throw new Error(`A user with the email ${email} already exists`)
    const passwordHash = await hashPassword(password)
    const user = await inTransaction(handle.pool, async (db) => {
      const identityData = emailIdentityData(email)
      const created = await createUser(db, {
        email,
        passwordHash,
        confirmed: true,
        identityData,
        userMetadata: { ...identityData, username, email_verified: true },
        appMetadata: { provider: 'email', providers: ['email'] },
      })
      const { rows } = await db.query<{ username: string }>(
        `update public.profiles set role = 'admin', is_verified = true where id = $1 returning username`,
        [created.id],
      )
      if (!rows[0]) throw new Error('The profile was not created: are the migrations applied?')
      return { id: created.id, username: rows[0].username }
    })
    console.log(`admin created: ${email} (username ${user.username}, id ${user.id})`)
  } finally {
    await handle.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error))
    process.exitCode = 1
  })
}
