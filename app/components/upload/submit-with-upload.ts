import type { FetcherWithComponents } from '@remix-run/react'
import { focusFirstError } from '~/lib/forms'
import type { useResumableUpload } from './use-resumable-upload'

/**
 * The submit flow the upload and create-quote forms share, with JavaScript: the form's own checks
 * found `errors` (shown, the first one focused, nothing sent); else the chosen `file`, if any, goes to
 * Storage resumably and the form is posted without it, with the stored object's name as `sourcePath`.
 * A failed transfer is shown as the form's message (`transferFailed` words it).
 */
export async function submitWithUpload<Errors extends Partial<Record<string, string>>>({
  form,
  formElement,
  errors,
  order,
  setErrors,
  file,
  fileField,
  upload,
  fetcher,
  transferFailed,
}: {
  form: FormData
  formElement: HTMLFormElement | null
  errors: Errors
  /** The fields in the form's order: the first with an error gets the focus. */
  order: readonly string[]
  setErrors: (errors: Errors) => void
  /** The file to send first, or null to post the form as it is. */
  file: File | null
  /** The file field, left out of the post. */
  fileField: string
  upload: ReturnType<typeof useResumableUpload>
  fetcher: Pick<FetcherWithComponents<unknown>, 'submit'>
  transferFailed: (error: unknown) => string
}): Promise<void> {
  if (Object.keys(errors).length) {
    setErrors(errors)
    focusFirstError(formElement, errors, order)
    return
  }
  setErrors({} as Errors)
  form.delete(fileField)
  if (file) {
    let objectName: string | null
    try {
      objectName = await upload.send(file)
    } catch (error) {
      setErrors({ form: transferFailed(error) } as unknown as Errors)
      return
    }
    if (objectName === null) return
    form.set('sourcePath', objectName)
  }
  upload.saving()
  fetcher.submit(form, { method: 'post', encType: 'multipart/form-data' })
}
