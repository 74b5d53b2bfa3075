import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { AdminLoadError } from '~/components/admin/admin-tabs'
import { AuditList } from '~/components/admin/audit-list'
import { UsersPanel } from '~/components/admin/users-panel'
import { fieldErrors } from '~/lib/schemas/auth'
import {
  ADMIN_ACTION_FAILURES,
  ADMIN_MESSAGES,
  addUserSchema,
  addUserValues,
  adminTitle,
  changeRoleSchema,
  formFields,
} from '~/lib/schemas/admin'
import { DomainError } from '~/server/errors.server'
import { adminAction, loadAdminTab } from '~/server/http/admin-console.server'
import { formFailure, pageFailure } from '~/server/http/domain-errors.server'
import { addUser, changeRole, deleteUser, listAudit, listUsers } from '~/server/users.server'

/**
 * /admin/users — User Management: search, add a user, change a role, delete a user (asking
 * first; an admin cannot delete their own row), and the audit trail of every admin action.
 */
export const handle = { adminTab: 'users' }

export function loader(args: LoaderFunctionArgs) {
  return loadAdminTab(args, 'users', async (claims, url) => {
    const search = url.searchParams.get('q') ?? ''
    const cursor = url.searchParams.get('after')
    const [users, audit] = await Promise.all([listUsers(claims, { search, cursor }), listAudit(claims)])
    return { search, cursor, users, audit }
  })
}

export function action(args: ActionFunctionArgs) {
  return adminAction(
    args,
    ['add-user', 'delete-user', 'change-role'],
    () => '/admin/users',
    async (intent, { claims, form }) => {
      switch (intent) {
        case 'add-user': {
          const input = addUserSchema.safeParse(formFields(form, ['username', 'email', 'password', 'role'] as const))
          if (!input.success) {
            // 'Please fill in all required fields' only when one is empty; otherwise what is wrong, at its field.
            const errors = fieldErrors(input.error)
            const missing = ['username', 'email', 'password', 'role'].some((name) => !String(form.get(name) ?? '').trim())
            throw new DomainError('invalid', missing ? ADMIN_MESSAGES.fillRequired : Object.values(errors)[0]!, errors)
          }
          await addUser(claims, input.data)
          return ADMIN_MESSAGES.userAdded
        }
        case 'delete-user':
          await deleteUser(claims, formFields(form, ['userId'] as const).userId)
          return ADMIN_MESSAGES.userDeleted
        case 'change-role': {
          const input = changeRoleSchema.safeParse(formFields(form, ['userId', 'role'] as const))
          if (!input.success) throw new DomainError('invalid', input.error.issues[0]!.message)
          await changeRole(claims, input.data.userId, input.data.role)
          return ADMIN_MESSAGES.roleChanged
        }
      }
    },
    // The add-user form shows its refusal in place, with what was typed (never the password).
    (intent, error, { form, headers }) => {
      if (intent !== 'add-user') return null
      const values = addUserValues(form)
      return error
        ? pageFailure(error, { intent, values }, headers)
        : formFailure({ intent, values, formError: ADMIN_ACTION_FAILURES[intent] }, 500, headers)
    },
  )
}

export default function UsersTab() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  if (loaded.loadError !== null) return <AdminLoadError message={loaded.loadError} />
  const addUser = actionData && 'intent' in actionData && actionData.intent === 'add-user' ? actionData : undefined
  return (
    <>
      <UsersPanel
        page={loaded.users}
        search={loaded.search}
        cursor={loaded.cursor}
        confirm={loaded.confirm}
        addUser={addUser ? { formError: addUser.formError, fieldErrors: addUser.fieldErrors, values: addUser.values } : undefined}
      />
      <AuditList entries={loaded.audit} />
    </>
  )
}

export const meta: MetaFunction = () => [{ title: adminTitle('users') }]
