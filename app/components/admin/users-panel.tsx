import { Form, Link } from '@remix-run/react'
import type { FormFailure } from '~/lib/forms'
import { SearchIcon } from '~/components/icons'
import { Alert } from '~/components/ui/alert'
import { checkWithSchema, FieldChecks, LiveSummary, SelectField, TextField } from '~/components/ui/field'
import { SubmitButton } from '~/components/ui/submit-button'
import type { AdminUser, UsersPage } from '~/lib/admin-types'
import { formatDate, formatCount } from '~/lib/format'
import { addUserSchema, ROLE_LABELS, USER_ROLES } from '~/lib/schemas/admin'
import { Badge } from './admin-tabs'
import { ConfirmAction } from '~/components/ui/confirm-action'

const ROLE_OPTIONS = USER_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }))

/** The add-user form's failure (app/lib/forms.ts), as the page hands it down. */
export type AddUserState = Omit<FormFailure<{ username: string; email: string; role: string }>, 'ok'>

/**
 * User Management: search (a GET form, so the URL holds it), a paged list
 * (username, email, role, verified, joined, videos), add user, change role
 * and delete — delete first asks on a confirmation state of the page
 * (`?confirm=<user id>`). The admin's own row shows Current User and offers
 * neither delete nor a role change.
 */
export function UsersPanel({
  page,
  search,
  cursor,
  confirm,
  addUser,
}: {
  page: UsersPage
  search: string
  cursor: string | null
  confirm: string | null
  addUser?: AddUserState
}) {
  const confirming = confirm ? page.users.find((user) => user.id === confirm && !user.isCurrentUser) : undefined
  const query = (extra: Record<string, string>) =>
    `/admin/users?${new URLSearchParams({ ...(search ? { q: search } : {}), ...extra })}`
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
      <div className="min-w-0 space-y-4">
        <Form method="get" role="search" className="flex gap-2">
          <label htmlFor="user-search" className="sr-only">
            Search users by username or email
          </label>
          <div className="relative flex-1">
            <SearchIcon className="pointer-events-none absolute left-3.5 top-1/2 h-5 w-5 -translate-y-1/2 text-ink-400" />
            <input
              id="user-search"
              name="q"
              type="search"
              defaultValue={search}
              placeholder="Search by username or email"
              className="block min-h-11 w-full rounded-full border-0 bg-white py-2.5 pl-11 pr-4 text-base text-ink-900 shadow-sm ring-1 ring-inset ring-ink-300 placeholder:text-ink-400 focus:ring-2 focus:ring-brand-600"
            />
          </div>
          <button type="submit" className="btn-secondary">
            Search
          </button>
        </Form>
        {confirming ? <ConfirmDelete user={confirming} cancelTo={query(cursor ? { after: cursor } : {})} /> : null}
        {page.users.length === 0 ? (
          <p className="card px-6 py-10 text-center text-ink-700">{search ? `No user matches “${search}”.` : 'No users yet.'}</p>
        ) : (
          <ul className="grid gap-3">
            {page.users.map((user) => (
              <li key={user.id}>
                <UserRow user={user} deleteHref={query({ ...(cursor ? { after: cursor } : {}), confirm: user.id })} />
              </li>
            ))}
          </ul>
        )}
        <nav aria-label="User pages" className="flex flex-wrap justify-between gap-2">
          {cursor ? (
            <Link to={query({})} className="btn-secondary">
              First page
            </Link>
          ) : (
            <span />
          )}
          {page.next ? (
            <Link to={query({ after: page.next })} className="btn-secondary">
              Next page
            </Link>
          ) : null}
        </nav>
      </div>
      <AddUserForm state={addUser} />
    </div>
  )
}

function UserRow({ user, deleteHref }: { user: AdminUser; deleteHref: string }) {
  const label = (
    <>
      Delete<span className="sr-only"> {user.username}</span>
    </>
  )
  const look = 'btn-ghost text-red-700 hover:bg-red-50'
  return (
    <article className="card p-4" aria-label={user.username}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold text-ink-900">{user.username}</span>
            <Badge tone={user.role === 'admin' ? 'brand' : 'neutral'}>{ROLE_LABELS[user.role]}</Badge>
            {user.role === 'creator' ? (
              <Badge tone={user.isVerified ? 'success' : 'warning'}>{user.isVerified ? 'Verified' : 'Unverified'}</Badge>
            ) : null}
            {user.isCurrentUser ? <Badge tone="success">Current User</Badge> : null}
          </p>
          <p className="break-all text-sm text-ink-600">{user.email}</p>
          <p className="text-caption mt-0.5">
            Joined {formatDate(user.createdAt)} · {formatCount(user.videoCount, 'video')}
          </p>
        </div>
        {user.isCurrentUser ? null : (
          <div className="flex flex-wrap items-end gap-2">
            <Form method="post" className="flex items-end gap-2">
              <input type="hidden" name="intent" value="change-role" />
              <input type="hidden" name="userId" value={user.id} />
              <label className="sr-only" htmlFor={`role-${user.id}`}>
                Role of {user.username}
              </label>
              <select
                id={`role-${user.id}`}
                name="role"
                defaultValue={user.role}
                className="min-h-11 rounded-full border-0 bg-white py-2 pl-4 pr-9 text-sm text-ink-900 ring-1 ring-inset ring-ink-300 focus:ring-2 focus:ring-brand-600"
              >
                {ROLE_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
              <button type="submit" className="btn-secondary">
                Save<span className="sr-only"> role of {user.username}</span>
              </button>
            </Form>
            <ConfirmAction
              label={label}
              triggerClassName={look}
              fallback={
                <Link to={deleteHref} className={look}>
                  {label}
                </Link>
              }
              title={`Delete ${user.username}?`}
              description={<DeleteWarning />}
              fields={{ intent: 'delete-user', userId: user.id }}
              confirmLabel={`Yes, delete ${user.username}`}
              pendingLabel="Deleting…"
            />
          </div>
        )}
      </div>
    </article>
  )
}

function ConfirmDelete({ user, cancelTo }: { user: AdminUser; cancelTo: string }) {
  return (
    <Alert tone="warning" title={`Delete ${user.username}?`}>
      <DeleteWarning />
      <Form method="post" className="mt-3 flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="delete-user" />
        <input type="hidden" name="userId" value={user.id} />
        <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700">
          Yes, delete {user.username}
        </button>
        <Link to={cancelTo} className="btn-secondary">
          Cancel
        </Link>
      </Form>
    </Alert>
  )
}

function DeleteWarning() {
  return (
    <p>
      Their account and everything they own — videos, files, comments, likes, follows and quotes — will be deleted. This cannot be
      undone.
    </p>
  )
}

export function AddUserForm({ state }: { state?: AddUserState }) {
  const errors = state?.fieldErrors ?? {}
  return (
    <section aria-labelledby="add-user-title" className="card p-5">
      <h3 id="add-user-title" className="text-heading">
        Add user
      </h3>
      <p className="text-caption mt-1">They can sign in at once with this password.</p>
      <FieldChecks check={checkAddUserField}>
        <Form method="post" className="mt-4 grid gap-4" noValidate>
          <input type="hidden" name="intent" value="add-user" />
          {/* One message at a time: the summary only when it says more than the fields' own errors. */}
          {/* A summary about the fields goes once each field it is about is right. */}
          <LiveSummary
            message={state?.formError && !Object.values(errors).includes(state.formError) ? state.formError : null}
            names={Object.keys(errors)}
          />
          <TextField
            label="Username"
            name="username"
            autoComplete="off"
            required
            defaultValue={state?.values?.username}
            error={errors.username}
          />
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="off"
            required
            defaultValue={state?.values?.email}
            error={errors.email}
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            error={errors.password}
          />
          <SelectField
            label="Role"
            name="role"
            required
            options={ROLE_OPTIONS}
            placeholder="Choose a role"
            defaultValue={state?.values?.role ?? ''}
            error={errors.role}
          />
          <SubmitButton pendingLabel="Adding…">Add user</SubmitButton>
        </Form>
      </FieldChecks>
    </section>
  )
}

/** Each field is checked again with the shared schema as it changes. */
const checkAddUserField = checkWithSchema(addUserSchema)
