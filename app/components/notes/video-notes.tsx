import { Link, useFetcher, useLocation } from '@remix-run/react'
import { useEffect, useId, useRef, useState, type MouseEvent } from 'react'
import { Alert } from '~/components/ui/alert'
import { DeleteControl } from '~/components/ui/delete-control'
import { TextAreaField, TextField } from '~/components/ui/field'
import { Spinner } from '~/components/ui/spinner'
import { useHydrated } from '~/components/use-hydrated'
import { NOTE_BODY_MAX, noteClock, parseNoteMoment, type NoteActionData, type VideoNote } from '~/lib/schemas/notes'

/**
 * The video page's Notes: the learner's private notes at moments of the
 * video. "Add a note at 0:07" takes the moment from the player while it plays
 * (with JavaScript), or from `?t=` (without: a transcript line's "Note" link,
 * a shared moment), and the moment field can be changed by hand. Each note's
 * time is a `?t=` link, so it seeks without JavaScript (the page starts the
 * player there) and, with it, seeks in place. Edit sits behind a disclosure
 * and delete asks first; every form is a plain post to /video/:id/notes first.
 */
export const NOTES_HEADING_ID = 'notes-heading'

/** The moment field's pattern: seconds or a clock (7, 0:07, 1:02:03). */
const MOMENT_PATTERN = '\\s*\\d{1,5}(:\\d{1,2}){0,2}\\s*'

export function VideoNotes({ videoId, notes, moment }: { videoId: string; notes: VideoNote[]; moment: number | null }) {
  const action = `/video/${videoId}/notes`
  return (
    <section id="notes" aria-labelledby={NOTES_HEADING_ID} className="card mt-6 p-4 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={NOTES_HEADING_ID} tabIndex={-1} className="text-heading">
            My notes {notes.length ? <span className="text-caption font-normal">· {notes.length}</span> : null}
          </h2>
          <p className="text-caption mt-0.5">Only you can see your notes.</p>
        </div>
        {notes.length ? (
          <a href={`/notes/export?videoId=${videoId}`} download className="btn-secondary" data-testid="export-video-notes">
            Export as Markdown
          </a>
        ) : null}
      </div>
      <AddNoteForm videoId={videoId} action={action} moment={moment} />
      {notes.length ? (
        <ol className="mt-4 flex flex-col gap-2" aria-label="Your notes on this video">
          {notes.map((note) => (
            <NoteItem key={note.id} note={note} videoId={videoId} action={action} />
          ))}
        </ol>
      ) : (
        <p className="text-caption mt-4">No notes yet. Pause at a moment worth keeping and write it down.</p>
      )}
    </section>
  )
}

function playerOf(videoId: string): HTMLVideoElement | null {
  return document.querySelector<HTMLVideoElement>(`[data-video-id="${CSS.escape(videoId)}"] video`)
}

function AddNoteForm({ videoId, action, moment }: { videoId: string; action: string; moment: number | null }) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<NoteActionData>({ key: `note-add-${videoId}` })
  const formRef = useRef<HTMLFormElement>(null)
  const [at, setAt] = useState(noteClock(moment ?? 0))
  // Once the learner types (the moment or the note), the moment stays where it was; after a save it follows again.
  const pinned = useRef(false)
  const location = useLocation()

  // A new `?t=` (a transcript line's Note link, a note's time): the moment goes there.
  useEffect(() => {
    if (moment === null) return
    setAt(noteClock(moment))
    pinned.current = false
  }, [moment])

  // The transcript line's link asks for the note field.
  useEffect(() => {
    if (location.hash !== '#add-note') return
    const text = formRef.current?.elements.namedItem('text')
    if (text instanceof HTMLTextAreaElement) text.focus()
  }, [location.hash, location.search])

  // With JavaScript the moment follows the player until the learner starts writing.
  useEffect(() => {
    const video = playerOf(videoId)
    if (!video) return
    const follow = () => {
      if (!pinned.current) setAt(noteClock(Math.floor(video.currentTime)))
    }
    video.addEventListener('timeupdate', follow)
    video.addEventListener('seeked', follow)
    return () => {
      video.removeEventListener('timeupdate', follow)
      video.removeEventListener('seeked', follow)
    }
  }, [videoId])

  const answer = fetcher.data
  const done = useRef<NoteActionData | undefined>(undefined)
  useEffect(() => {
    if (fetcher.state !== 'idle' || !answer || done.current === answer) return
    done.current = answer
    if (answer.ok) {
      formRef.current?.reset()
      pinned.current = false
    }
  }, [fetcher.state, answer])

  const failed = answer && !answer.ok && fetcher.state === 'idle' ? answer : undefined
  const busy = fetcher.state !== 'idle'
  const shown = parseNoteMoment(at)
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action={action}
      preventScrollReset
      id="add-note"
      className="mt-4 flex scroll-mt-24 flex-col gap-3 rounded-xl bg-ink-50 p-3 ring-1 ring-inset ring-ink-200"
      aria-label="Add a note"
    >
      <input type="hidden" name="intent" value="note-add" />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <div className="grid gap-3 sm:grid-cols-[8rem_minmax(0,1fr)]">
        <TextField
          label="Moment"
          name="at"
          inputMode="numeric"
          autoComplete="off"
          required
          pattern={MOMENT_PATTERN}
          hint="m:ss"
          value={at}
          onChange={(event) => {
            pinned.current = true
            setAt(event.currentTarget.value)
          }}
          error={failed?.fieldErrors?.at}
          className="tabular-nums"
        />
        <TextAreaField
          label="Note"
          name="text"
          required
          maxLength={NOTE_BODY_MAX}
          rows={2}
          defaultValue={failed?.values?.text}
          onInput={() => {
            pinned.current = true
          }}
          error={failed?.fieldErrors?.text ?? (failed && !failed.fieldErrors ? failed.formError : undefined)}
        />
      </div>
      <div className="flex flex-wrap items-center justify-end gap-3">
        <div aria-live="polite" className="text-sm text-emerald-800">
          {answer?.ok && fetcher.state === 'idle' ? answer.message : null}
        </div>
        <button type="submit" className="btn-primary tabular-nums" aria-disabled={busy || undefined}>
          {busy ? <Spinner label="Adding" className="h-4 w-4" /> : null}
          {hydrated && shown !== null ? `Add note at ${noteClock(shown)}` : 'Add note'}
        </button>
      </div>
    </fetcher.Form>
  )
}

function NoteItem({ note, videoId, action }: { note: VideoNote; videoId: string; action: string }) {
  const time = noteClock(note.atSeconds)
  const seek = (_event: MouseEvent<HTMLAnchorElement>) => {
    const video = playerOf(videoId)
    if (!video) return
    video.currentTime = note.atSeconds
    video.play().catch(() => {})
  }
  return (
    <li id={`note-${note.id}`} className="rounded-xl px-2 py-2 ring-1 ring-inset ring-ink-200" data-note={note.id}>
      <div className="flex items-start gap-3">
        <Link
          to={`?t=${note.atSeconds}`}
          replace
          preventScrollReset
          onClick={seek}
          className="inline-flex min-h-11 min-w-14 shrink-0 items-center justify-center rounded-lg font-mono text-sm font-semibold text-brand-700 hover:bg-brand-50"
          aria-label={`Play from ${time}`}
        >
          {time}
        </Link>
        <p className="min-w-0 flex-1 whitespace-pre-line break-words py-2.5 text-sm text-ink-800">{note.body}</p>
        <DeleteControl
          noun="note"
          title={`Delete your note at ${time}?`}
          description="The note is deleted for good."
          fields={{ intent: 'note-delete', noteId: note.id }}
          fetcherKey={`note-delete-${note.id}`}
          focusAfterId={NOTES_HEADING_ID}
          action={action}
        />
      </div>
      <EditNote note={note} action={action} />
    </li>
  )
}

function EditNote({ note, action }: { note: VideoNote; action: string }) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<NoteActionData>({ key: `note-edit-${note.id}` })
  const detailsRef = useRef<HTMLDetailsElement>(null)
  const id = useId()
  const answer = fetcher.data
  const done = useRef<NoteActionData | undefined>(undefined)
  useEffect(() => {
    if (fetcher.state !== 'idle' || !answer || done.current === answer) return
    done.current = answer
    if (answer.ok && detailsRef.current) detailsRef.current.open = false
  }, [fetcher.state, answer])
  const failed = answer && !answer.ok && fetcher.state === 'idle' ? answer : undefined
  const busy = fetcher.state !== 'idle'
  const time = noteClock(note.atSeconds)
  return (
    <details ref={detailsRef} className="ml-[4.25rem]">
      <summary className="inline-flex min-h-11 cursor-pointer list-none items-center rounded-full px-3 text-sm font-semibold text-brand-700 hover:bg-brand-50 [&::-webkit-details-marker]:hidden">
        Edit<span className="sr-only"> your note at {time}</span>
      </summary>
      <fetcher.Form
        method="post"
        action={action}
        preventScrollReset
        className="mt-2 flex flex-col gap-3"
        aria-labelledby={`${id}-title`}
      >
        <p id={`${id}-title`} className="sr-only">
          Edit your note at {time}
        </p>
        <input type="hidden" name="intent" value="note-edit" />
        <input type="hidden" name="noteId" value={note.id} />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        <TextField
          label="Moment"
          name="at"
          inputMode="numeric"
          autoComplete="off"
          required
          pattern={MOMENT_PATTERN}
          defaultValue={time}
          error={failed?.fieldErrors?.at}
          className="max-w-32 tabular-nums"
        />
        <TextAreaField
          label="Note"
          name="text"
          required
          maxLength={NOTE_BODY_MAX}
          rows={3}
          defaultValue={note.body}
          error={failed?.fieldErrors?.text}
        />
        {failed && !failed.fieldErrors ? <Alert tone="error">{failed.formError}</Alert> : null}
        <div className="flex justify-end">
          <button type="submit" className="btn-primary" aria-disabled={busy || undefined}>
            {busy ? <Spinner label="Saving" className="h-4 w-4" /> : null}
            Save note
          </button>
        </div>
      </fetcher.Form>
    </details>
  )
}
