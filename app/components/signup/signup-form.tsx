import { Form, Link, useActionData } from '@remix-run/react'
import type { FormEvent } from 'react'
import { ChevronLeftIcon } from '~/components/icons'
import { NewPasswordField } from '~/components/password-strength-meter'
import { Alert } from '~/components/ui/alert'
import { checkWithSchema, FieldChecks, LiveSummary, SelectField, TextAreaField, TextField } from '~/components/ui/field'
import { SubmitButton } from '~/components/ui/submit-button'
import { useCheckBeforeSending } from '~/components/ui/use-check-before-sending'
import { CONCENTRATIONS, FIELDS_OF_INTEREST } from '~/lib/catalog'
import {
  AUTH_MESSAGES,
  signupFormValues,
  signupSchema,
  type FieldErrors,
  type PortfolioFileInfo,
  type SignupEcho,
} from '~/lib/schemas/auth'
import type { SignupFailure } from '~/lib/signup'
import { CategoryChecklist } from './category-checklist'
import { PortfolioField } from './portfolio-field'

const EMPTY_VALUES: SignupEcho = {
  username: '',
  email: '',
  fieldOfInterest: '',
  concentration: '',
  bio: '',
  categories: [],
  portfolioType: 'video',
}

/** Each field is checked again with the shared schema as it changes (the portfolio file's type and size too). */
const checkSignupField = checkWithSchema(signupSchema, (form) => signupFormValues(form, portfolioOf(form)))

function portfolioOf(form: FormData): PortfolioFileInfo | null {
  const file = form.get('portfolio')
  return file instanceof File && file.size > 0 ? { name: file.name, size: file.size, type: file.type } : null
}

export function SignupForm({ creator }: { creator: boolean }) {
  const actionData = useActionData<SignupFailure>()
  const { clientErrors, checkBeforeSending } = useCheckBeforeSending({})
  const errors: FieldErrors = clientErrors ?? actionData?.fieldErrors ?? {}
  const values = actionData?.values ?? EMPTY_VALUES
  const formError = clientErrors ? null : (actionData?.formError ?? null)
  // After a round trip to the server (the only way without JavaScript), say so at the top: some errors are far below.
  const serverErrorCount = clientErrors ? 0 : Object.keys(actionData?.fieldErrors ?? {}).length
  const accountExists = errors.email === AUTH_MESSAGES.accountExists

  // With JavaScript, the same schema checks the form before it is sent; the first field with an error gets the focus.
  function validate(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget)
    checkBeforeSending(event, signupSchema.safeParse(signupFormValues(form, portfolioOf(form))))
  }

  return (
    <div className="card p-5 sm:p-8">
      <Link
        to="/signup"
        className="-ml-2 mb-4 inline-flex min-h-11 items-center gap-1 rounded-full px-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
      >
        <ChevronLeftIcon />
        Back
      </Link>
      <FieldChecks check={checkSignupField}>
        <Form
          method="post"
          action={`/signup?creator=${creator ? 'yes' : 'no'}`}
          encType="multipart/form-data"
          noValidate
          onSubmit={validate}
          className="flex flex-col gap-5"
        >
          <input type="hidden" name="role" value={creator ? 'creator' : 'user'} />
          {formError ? (
            <Alert tone="error">{formError}</Alert>
          ) : (
            // It goes once each highlighted field is right again.
            <LiveSummary
              message={
                !serverErrorCount
                  ? null
                  : serverErrorCount === 1
                    ? 'Please check the highlighted field.'
                    : `Please check the ${serverErrorCount} highlighted fields.`
              }
              names={Object.keys(actionData?.fieldErrors ?? {})}
            />
          )}
          <TextField
            label="Username"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            defaultValue={values.username}
            hint="3–30 letters, numbers, dots, dashes or underscores. Shown on your videos."
            error={errors.username}
            required
          />
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={values.email}
            error={errors.email}
            hint={
              accountExists ? (
                <Link to="/login" className="font-semibold text-brand-700 underline">
                  Sign in instead
                </Link>
              ) : undefined
            }
            required
          />
          <NewPasswordField
            label="Password"
            name="password"
            error={errors.password}
            submittedStrength={clientErrors ? null : (actionData?.strength ?? null)}
            required
          />
          <TextField
            label="Confirm password"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword}
            required
          />
          <SelectField
            label="Field of Interest"
            name="fieldOfInterest"
            defaultValue={values.fieldOfInterest}
            placeholder="Choose a field (optional)"
            options={FIELDS_OF_INTEREST.map((field) => ({ value: field, label: field }))}
            error={errors.fieldOfInterest}
          />
          {creator ? (
            <>
              <SelectField
                label="Concentration"
                name="concentration"
                defaultValue={values.concentration}
                placeholder="Choose a concentration (optional)"
                options={CONCENTRATIONS.map((concentration) => ({ value: concentration, label: concentration }))}
                error={errors.concentration}
              />
              <TextAreaField
                label="Bio"
                name="bio"
                rows={4}
                maxLength={500}
                defaultValue={values.bio}
                hint="A few lines about you and what you teach (up to 500 characters)."
                error={errors.bio}
              />
              <PortfolioField
                defaultType={values.portfolioType}
                typeError={errors.portfolioType}
                fileError={errors.portfolio}
                chooseAgain={Boolean(actionData?.hadFile) && !clientErrors}
              />
              <CategoryChecklist defaultChecked={values.categories} error={errors.categories} />
            </>
          ) : null}
          <SubmitButton className="mt-1 h-12 w-full text-base" pendingLabel="Creating your account…">
            {creator ? 'Create Account and Apply' : 'Create Account'}
          </SubmitButton>
        </Form>
      </FieldChecks>
    </div>
  )
}
