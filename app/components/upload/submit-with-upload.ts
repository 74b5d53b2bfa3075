import type { FetcherWithComponents } from '@remix-run/react'
import { useEffect, useRef, type RefObject } from 'react'
import { focusFirstError } from '~/lib/forms'
import type { useResumableUpload } from './use-resumable-upload'

/**
 * The submit flow the upload and create-quote forms share, with JavaScript: the form's own checks
 * found `errors` (shown, the first one focused, nothing sent); else the chosen `file`, if any, goes to
 * Storage resumably and the form is posted without it, with the stored object's name as `sourcePath`.
 * A failed transfer is shown as the form's message (`transferFailed` words it); the answer is
 * `useUploadAnswer`'s.
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

/**
 * The answer to the form `submitWithUpload` posted, handled once per answer (the upload and create-quote
 * forms): a success ends the upload's bar and goes on (`onSaved`); a refusal ends it too, shows the
 * refusal's field errors (`errorsOf`) and focuses the first of them in the form's `order`.
 */
export function useUploadAnswer<Data extends { ok: boolean }, Errors extends Partial<Record<string, string>>>({
  fetcher,
  upload,
  formRef,
  order,
  errorsOf,
  setErrors,
  onSaved,
}: {
  fetcher: Pick<FetcherWithComponents<Data>, 'state' | 'data'>
  upload: Pick<ReturnType<typeof useResumableUpload>, 'succeeded' | 'failed'>
  formRef: RefObject<HTMLFormElement | null>
  order: readonly string[]
  errorsOf: (refused: Extract<Data, { ok: false }>) => Errors
  setErrors: (errors: Errors) => void
  onSaved: (saved: Extract<Data, { ok: true }>) => void
}): void {
  const handled = useRef<Data | undefined>(undefined)
  // The callbacks and the upload's transitions are new functions each render: the latest are called.
  const latest = useRef({ upload, errorsOf, setErrors, onSaved })
  latest.current = { upload, errorsOf, setErrors, onSaved }
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || handled.current === fetcher.data) return
    handled.current = fetcher.data
    const data = fetcher.data
    const { upload, errorsOf, setErrors, onSaved } = latest.current
    if (data.ok) {
      upload.succeeded()
      onSaved(data as Extract<Data, { ok: true }>)
      return
    }
    upload.failed()
    const found = errorsOf(data as Extract<Data, { ok: false }>)
    setErrors(found)
    focusFirstError(formRef.current, found, order)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the form and its order are fixed; the callbacks are read from `latest`
  }, [fetcher.state, fetcher.data])
}
