import { useEffect, useId, useState } from 'react'
import { FileIcon } from '~/components/icons'
import { FieldError, SelectField, useLiveError } from '~/components/ui/field'
import { useHydrated } from '~/components/use-hydrated'
import { formatBytes } from '~/lib/format'
import { PORTFOLIO_ACCEPT_ANY, PORTFOLIO_HINT, PORTFOLIO_TYPES, portfolioType, type PortfolioType } from '~/lib/schemas/auth'

interface Chosen {
  name: string
  size: number
  /** An object URL for an image preview. */
  preview: string | null
}

/**
 * The creator's portfolio: its type (Demo Video, Portfolio Image,
 * Document/CV) and the file. With JavaScript the file input accepts only the
 * chosen type and shows an image preview, or the file's name and size.
 */
export function PortfolioField({
  defaultType,
  typeError,
  fileError: sentFileError,
  chooseAgain,
}: {
  defaultType: string
  typeError?: string | null
  fileError?: string | null
  /** The last attempt carried a file the browser cannot keep: ask for it again. */
  chooseAgain?: boolean
}) {
  // 'Please select a portfolio file' goes as soon as a file is chosen (the server checks it again).
  const { error: fileError, ref: fileRef, markStale: markFileStale } = useLiveError(sentFileError)
  const id = useId()
  const hydrated = useHydrated()
  const [type, setType] = useState<PortfolioType>(portfolioType(defaultType)?.value ?? 'video')
  const [chosen, setChosen] = useState<Chosen | null>(null)
  const hintId = `${id}-hint`
  const errorId = fileError ? `${id}-error` : undefined
  const rules = portfolioType(type)

  useEffect(() => () => void (chosen?.preview && URL.revokeObjectURL(chosen.preview)), [chosen])

  return (
    <fieldset className="flex flex-col gap-4 rounded-card p-4 ring-1 ring-inset ring-ink-200">
      <legend className="px-1 text-sm font-semibold text-ink-900">Portfolio</legend>
      <p className="-mt-2 text-sm text-ink-600">Show the admin team what you teach and how. It stays private to them.</p>
      <SelectField
        label="Portfolio type"
        name="portfolioType"
        value={type}
        onChange={(event) => setType(event.currentTarget.value as PortfolioType)}
        options={PORTFOLIO_TYPES.map((option) => ({ value: option.value, label: option.label }))}
        error={typeError}
      />
      <div ref={fileRef} className="flex flex-col gap-1.5">
        <label htmlFor={id} className="text-sm font-medium text-ink-800">
          Portfolio file
        </label>
        <input
          id={id}
          name="portfolio"
          type="file"
          // Without JavaScript the type can change after the file is chosen: accept all three.
          accept={hydrated && rules ? rules.accept : PORTFOLIO_ACCEPT_ANY}
          aria-describedby={[hintId, errorId].filter(Boolean).join(' ')}
          aria-invalid={fileError ? true : undefined}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0]
            if (file) markFileStale(event)
            setChosen(
              file
                ? {
                    name: file.name,
                    size: file.size,
                    preview: file.type.startsWith('image/') ? URL.createObjectURL(file) : null,
                  }
                : null,
            )
          }}
          className="block w-full rounded-xl text-sm text-ink-700 ring-1 ring-inset ring-ink-300 file:mr-3 file:min-h-11 file:cursor-pointer file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-700 hover:file:bg-brand-100 aria-[invalid=true]:ring-red-500"
        />
        <p id={hintId} className="text-caption">
          {PORTFOLIO_HINT}
          {chooseAgain ? <span className="block font-medium text-ink-700">Please choose your file again.</span> : null}
        </p>
        {fileError ? <FieldError id={errorId}>{fileError}</FieldError> : null}
        {chosen ? <ChosenFile chosen={chosen} /> : null}
      </div>
    </fieldset>
  )
}

function ChosenFile({ chosen }: { chosen: Chosen }) {
  return (
    <div className="flex items-center gap-3 rounded-xl bg-ink-50 p-3 ring-1 ring-inset ring-ink-200" data-testid="portfolio-chosen">
      {chosen.preview ? (
        // eslint-disable-next-line jsx-a11y/img-redundant-alt -- "Portfolio Image" is the portfolio's type (docs/product.md, Rules and messages), not a description of the element
        <img src={chosen.preview} alt="Preview of your portfolio image" className="h-20 w-20 rounded-lg object-cover" />
      ) : (
        <span className="inline-flex h-12 w-12 items-center justify-center rounded-lg bg-white text-brand-600 ring-1 ring-ink-200">
          <FileIcon />
        </span>
      )}
      <div className="min-w-0">
        <p className="truncate text-sm font-medium text-ink-900">{chosen.name}</p>
        <p className="text-caption">{formatBytes(chosen.size)}</p>
      </div>
    </div>
  )
}
