import { Outlet } from '@remix-run/react'
import { createRemixStub } from '@remix-run/testing'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { UploadForm } from '~/components/upload/upload-form'
import { UPLOAD_MESSAGES, type UploadActionData } from '~/lib/schemas/upload'

/**
 * The upload form's states with JavaScript (app/components/upload/): checked
 * before anything is sent, then uploading with progress, Pause/Resume and
 * Cancel, then the server's checks, then success and the move to the video.
 * The TUS client is replaced by a fake that the test drives (`tus`), so no
 * byte leaves; the real transfer is the e2e suite's and the Storage tests'.
 */
interface FakeUploadOptions {
  metadata: Record<string, string>
  onProgress?(sent: number, total: number): void
  onSuccess?(): void
  onError?(error: Error): void
}

const tus = vi.hoisted(() => ({
  uploads: [] as Array<{
    file: File
    options: FakeUploadOptions
    started: number
    aborted: Array<boolean | undefined>
  }>,
}))

vi.mock('tus-js-client', () => ({
  Upload: class {
    file: File
    options: FakeUploadOptions
    record: (typeof tus.uploads)[number]
    constructor(file: File, options: FakeUploadOptions) {
      this.file = file
      this.options = options
      this.record = { file, options, started: 0, aborted: [] }
      tus.uploads.push(this.record)
    }
    findPreviousUploads() {
      return Promise.resolve([])
    }
    resumeFromPreviousUpload() {}
    start() {
      this.record.started++
    }
    abort(terminate?: boolean) {
      this.record.aborted.push(terminate)
      return Promise.resolve()
    }
  },
}))

beforeEach(() => {
  tus.uploads.length = 0
})

/** The upload the form started; its options are the live ones (the form may change the metadata before start). */
async function theUpload() {
  await waitFor(() => expect(tus.uploads.length).toBe(1))
  await waitFor(() => expect(tus.uploads[0]!.started).toBeGreaterThan(0))
  return tus.uploads[0]!
}

function renderUpload(answer: () => UploadActionData = () => ({ ok: true, videoId: 'new-video' })) {
  const posts: FormData[] = []
  const Stub = createRemixStub([
    {
      id: 'root',
      path: '/',
      Component: () => <Outlet />,
      loader: () => ({ user: { id: 'creator-1' } }),
      children: [
        {
          path: 'upload',
          Component: () => (
            <UploadForm
              categories={[
                { value: 'natural-sciences-physics', label: 'Physics' },
                { value: 'mathematics', label: 'Mathematics' },
              ]}
              userId="creator-1"
              supabase={{ url: 'http://storage.invalid', anonKey: 'anon' }}
            />
          ),
          action: async ({ request }) => {
            posts.push(await request.formData())
            return answer()
          },
        },
        { path: 'video/:id', Component: () => <h1>The new video’s page</h1> },
      ],
    },
  ])
  render(<Stub initialEntries={['/upload']} />)
  return { posts, user: userEvent.setup() }
}

/**
 * Chooses a file as the picker would. (user-event's `upload` puts the file on the input's `files`
 * getter only, which happy-dom's `FormData` does not read; a `DataTransfer` list goes where both look.)
 */
function choose(input: HTMLElement, file: File) {
  const list = new DataTransfer()
  list.items.add(file)
  ;(input as HTMLInputElement).files = list.files
  fireEvent.change(input)
}

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  choose(await screen.findByLabelText(/Video file/), new File(['x'.repeat(1000)], 'lesson.mp4', { type: 'video/mp4' }))
  choose(screen.getByLabelText(/Thumbnail/), new File(['png'], 'poster.png', { type: 'image/png' }))
  await user.type(screen.getByRole('textbox', { name: /Title/ }), 'Why the sky is blue')
  await user.type(screen.getByRole('textbox', { name: /Description/ }), 'Rayleigh scattering, simply.')
}

const submitButton = () => screen.getByRole('button', { name: /Upload Video|Uploading|Uploaded/ })

describe('the upload form', () => {
  it('says what is missing before sending anything, and moves focus to the first problem', async () => {
    const { user, posts } = renderUpload()
    await screen.findByLabelText(/Video file/)
    await user.click(submitButton())

    for (const message of [
      UPLOAD_MESSAGES.videoRequired,
      UPLOAD_MESSAGES.thumbnailRequired,
      UPLOAD_MESSAGES.titleRequired,
      UPLOAD_MESSAGES.descriptionRequired,
    ]) {
      expect(screen.getByText(message)).toBeTruthy()
    }
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/Video file/)))
    expect(tus.uploads).toHaveLength(0)
    expect(posts).toHaveLength(0)
  })

  it('refuses a file that is not a video', async () => {
    const { user } = renderUpload()
    await fillIn(user)
    // `accept` is a hint to the picker only: a file of another type can still be chosen.
    choose(screen.getByLabelText(/Video file/), new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }))
    await user.click(submitButton())
    expect(await screen.findByText(UPLOAD_MESSAGES.videoNotVideo)).toBeTruthy()
    expect(tus.uploads).toHaveLength(0)
  })

  it('uploads with progress, pauses and resumes, then publishes and goes to the new video', async () => {
    const { user, posts } = renderUpload()
    await fillIn(user)
    await user.click(submitButton())
    const upload = await theUpload()
    expect(upload.file.name).toBe('lesson.mp4')

    // Uploading: a progress bar; the fields wait.
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' })
    upload.options.onProgress?.(250, 1000)
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('25'))
    expect(screen.getByRole('textbox', { name: /Title/ })).toHaveProperty('disabled', true)
    expect(submitButton()).toHaveProperty('disabled', true)

    await user.click(screen.getByRole('button', { name: 'Pause' }))
    expect(upload.aborted).toEqual([undefined])
    expect(screen.getByText(/Paused/)).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Resume' }))
    expect(upload.started).toBe(2)

    // Stored: the form goes to the server without the video, naming the stored object instead.
    upload.options.onSuccess?.()
    expect(await screen.findByText(UPLOAD_MESSAGES.success)).toBeTruthy()
    expect(posts).toHaveLength(1)
    const sent = posts[0]!
    expect(sent.get('video')).toBeNull()
    expect(sent.get('sourcePath')).toBe(upload.options.metadata.objectName)
    expect(sent.get('sourcePath')).toMatch(/^creator-1\/videos\/.+\.mp4$/)
    expect(sent.get('title')).toBe('Why the sky is blue')
    expect(sent.get('type')).toBe('video')
    expect(submitButton().textContent).toContain('Uploaded')

    // Then to the new video's page, a moment later.
    expect(await screen.findByRole('heading', { name: 'The new video’s page' }, { timeout: 5000 })).toBeTruthy()
  })

  it('cancels an upload in progress and deletes what was sent, ready to start again', async () => {
    const { user, posts } = renderUpload()
    await fillIn(user)
    await user.click(submitButton())
    const upload = await theUpload()
    await screen.findByRole('progressbar', { name: 'Upload progress' })

    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('progressbar')).toBeNull()
    expect(upload.aborted).toEqual([true])
    expect(screen.getByRole('textbox', { name: /Title/ })).toHaveProperty('disabled', false)
    expect(submitButton()).toHaveProperty('disabled', false)
    expect(posts).toHaveLength(0)
  })

  it('says so when the connection fails, and can be sent again', async () => {
    const { user } = renderUpload()
    await fillIn(user)
    await user.click(submitButton())
    const upload = await theUpload()
    upload.options.onError?.(Object.assign(new Error('tus: failed to upload chunk'), { originalRequest: {}, originalResponse: null }))

    expect(await screen.findByText(UPLOAD_MESSAGES.network)).toBeTruthy()
    expect(screen.queryByRole('progressbar')).toBeNull()
    expect(submitButton()).toHaveProperty('disabled', false)
  })

  // Where focus goes then is not checked here: the form moves it a frame after the fields re-enable,
  // and happy-dom's animation frames do not keep to React's render order as a browser's do.
  it('shows the server’s refusal on its field, and can be sent again', async () => {
    const { user } = renderUpload(() => ({ ok: false, fieldErrors: { title: UPLOAD_MESSAGES.titleTooLong } }))
    await fillIn(user)
    await user.click(submitButton())
    const upload = await theUpload()
    upload.options.onSuccess?.()

    expect(await screen.findByText(UPLOAD_MESSAGES.titleTooLong)).toBeTruthy()
    const title = screen.getByRole('textbox', { name: /Title/ })
    expect(title.getAttribute('aria-invalid')).toBe('true')
    expect(title).toHaveProperty('disabled', false)
    expect(submitButton()).toHaveProperty('disabled', false)
    expect(within(title.closest('form')!).queryByText(UPLOAD_MESSAGES.success)).toBeNull()
  })

  it('clears each field’s error as soon as the field is right, and keeps it while still wrong', async () => {
    const { user } = renderUpload()
    await screen.findByLabelText(/Video file/)
    await user.click(submitButton())
    expect(screen.getByText(UPLOAD_MESSAGES.titleRequired)).toBeTruthy()

    // Spaces only are still no title: the message stays; a real title clears it.
    const title = screen.getByRole('textbox', { name: /Title/ })
    await user.type(title, '   ')
    expect(screen.getByText(UPLOAD_MESSAGES.titleRequired)).toBeTruthy()
    await user.type(title, 'Why the sky is blue')
    expect(screen.queryByText(UPLOAD_MESSAGES.titleRequired)).toBeNull()
    expect(title.getAttribute('aria-invalid')).toBeNull()

    await user.type(screen.getByRole('textbox', { name: /Description/ }), 'Rayleigh scattering.')
    expect(screen.queryByText(UPLOAD_MESSAGES.descriptionRequired)).toBeNull()

    // Files: a wrong type gets its own message, a right one clears it.
    const video = screen.getByLabelText(/Video file/)
    choose(video, new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }))
    expect(await screen.findByText(UPLOAD_MESSAGES.videoNotVideo)).toBeTruthy()
    expect(screen.queryByText(UPLOAD_MESSAGES.videoRequired)).toBeNull()
    choose(video, new File(['x'.repeat(1000)], 'lesson.mp4', { type: 'video/mp4' }))
    await waitFor(() => expect(screen.queryByText(UPLOAD_MESSAGES.videoNotVideo)).toBeNull())
    expect(video.getAttribute('aria-invalid')).toBeNull()

    choose(screen.getByLabelText(/Thumbnail/), new File(['png'], 'poster.png', { type: 'image/png' }))
    await waitFor(() => expect(screen.queryByText(UPLOAD_MESSAGES.thumbnailRequired)).toBeNull())

    // The next submit checks everything again.
    await user.clear(title)
    await user.click(submitButton())
    expect(await screen.findByText(UPLOAD_MESSAGES.titleRequired)).toBeTruthy()
  })
})
