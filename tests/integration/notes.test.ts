import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOTE_MESSAGES } from '../../app/lib/schemas/notes'
import { loader as exportPage } from '../../app/routes/_me+/notes.export'
import { action as notesAction } from '../../app/routes/_watch+/video.$id_.notes'
import { loader as videoPage } from '../../app/routes/_watch+/video.$id'
import { addNote, deleteNote, exportNotes, listMyNotes, listVideoNotes, updateNote } from '../../app/server/notes.server'
import { call, tokenFor } from './support/api-client'
import { refusal } from './support/refusal'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Private timestamped notes against PostgreSQL: the domain functions (add at
 * a moment, clamped to the video's end; edit; delete; by video), the video
 * page's plain and scripted posts, the Markdown export (page and /api, its
 * headers and `?t=` links), the /api twins, and nobody else — another
 * learner, the creator, a visitor — reads a learner's notes through the
 * pages, /api or /rest/v1.
 */
describe('video notes', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let other: Person

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner, other] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('user'),
    ])
  })

  afterAll(async () => {
    await fixture?.close()
  })

  const pool = () => fixture.running.database.pool
  const lesson = async (seconds = 300, options: { isPublic?: boolean; title?: string } = {}) => {
    const id = await fixture.makeVideo(creator, options)
    await pool().query('update public.videos set duration_seconds = $2, title = coalesce($3, title) where id = $1', [
      id,
      seconds,
      options.title ?? null,
    ])
    return id
  }

  it('adds notes at moments (seconds or a clock; past the end is the end), lists them by moment, edits and deletes', async () => {
    const video = await lesson(120)
    const first = await addNote(learner.claims, video, { at: '0:07', text: '  Mitochondria\r\nmake energy  ' })
    expect(first).toMatchObject({ videoId: video, atSeconds: 7, body: 'Mitochondria\nmake energy' })
    await addNote(learner.claims, video, { at: 3, text: 'Earlier' })
    expect((await addNote(learner.claims, video, { at: '9:00', text: 'After the end' })).atSeconds).toBe(120)
    expect((await listVideoNotes(learner.claims, video)).map((note) => note.atSeconds)).toEqual([3, 7, 120])

    const edited = await updateNote(learner.claims, first.id, { at: '1:02', text: 'Edited' })
    expect(edited).toMatchObject({ id: first.id, atSeconds: 62, body: 'Edited' })
    expect(new Date(edited.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(first.updatedAt).getTime())
    expect(await deleteNote(learner.claims, first.id)).toEqual({ videoId: video, message: NOTE_MESSAGES.deleted })
    expect((await listVideoNotes(learner.claims, video)).map((note) => note.body)).toEqual(['Earlier', 'After the end'])
  })

  it('refuses bad input with the field at fault, and writes nothing', async () => {
    const video = await lesson()
    expect(await refusal(addNote(learner.claims, video, { at: '0:07', text: '   ' }))).toEqual({
      status: 400,
      message: NOTE_MESSAGES.badBody,
    })
    expect(await refusal(addNote(learner.claims, video, { at: '0:07', text: 'x'.repeat(2001) }))).toEqual({
      status: 400,
      message: NOTE_MESSAGES.bodyTooLong,
    })
    for (const at of ['-1', '1:75', 'soon', '', 86_401, 1.5]) {
      expect(await refusal(addNote(learner.claims, video, { at, text: 'A note' })), String(at)).toEqual({
        status: 400,
        message: NOTE_MESSAGES.badMoment,
      })
    }
    expect(await listVideoNotes(learner.claims, video)).toEqual([])
  })

  it('is private: another learner, the creator and an admin neither see nor change a learner’s notes', async () => {
    const video = await lesson()
    const admin = await fixture.makeUser('admin')
    const note = await addNote(learner.claims, video, { at: 5, text: 'Mine only' })
    for (const someone of [other, creator, admin]) {
      expect(await listVideoNotes(someone.claims, video)).toEqual([])
      expect(await listMyNotes(someone.claims)).not.toEqual(
        expect.arrayContaining([expect.objectContaining({ video: expect.objectContaining({ id: video }) })]),
      )
      expect((await refusal(updateNote(someone.claims, note.id, { at: 1, text: 'Changed' }))).status).toBe(404)
      expect((await refusal(deleteNote(someone.claims, note.id))).status).toBe(404)
    }
    expect((await listVideoNotes(learner.claims, video)).map((one) => one.body)).toEqual(['Mine only'])
    expect(await listVideoNotes(null, video)).toEqual([])
  })

  it('refuses a video the learner cannot see (someone else’s private one, an unknown id) as not found', async () => {
    const hidden = await lesson(300, { isPublic: false })
    expect(await refusal(addNote(learner.claims, hidden, { at: 1, text: 'Peek' }))).toEqual({
      status: 404,
      message: NOTE_MESSAGES.videoNotFound,
    })
    expect((await refusal(addNote(learner.claims, randomUUID(), { at: 1, text: 'Nowhere' }))).status).toBe(404)
    expect((await refusal(addNote(learner.claims, 'not-a-uuid', { at: 1, text: 'Nowhere' }))).status).toBe(404)
    expect((await refusal(exportNotes(learner.claims, { videoId: hidden, siteUrl: 'https://lumen.test' }))).status).toBe(404)
  })

  it('groups every note by video for the Notes tab, the video noted last first; deleting the video removes its notes', async () => {
    const person = await fixture.makeUser('user')
    const older = await lesson(300, { title: 'Cells' })
    const newer = await lesson(300, { title: 'Atoms' })
    await addNote(person.claims, older, { at: 20, text: 'Cell wall' })
    await addNote(person.claims, older, { at: 10, text: 'Nucleus' })
    await addNote(person.claims, newer, { at: 4, text: 'Electrons' })
    const groups = await listMyNotes(person.claims)
    expect(groups.map((group) => [group.video.title, group.notes.map((note) => note.body)])).toEqual([
      ['Atoms', ['Electrons']],
      ['Cells', ['Nucleus', 'Cell wall']],
    ])
    await pool().query('delete from public.videos where id = $1', [newer])
    expect((await listMyNotes(person.claims)).map((group) => group.video.title)).toEqual(['Cells'])
  })

  it('exports Markdown with `?t=` links: every video, or one', async () => {
    const person = await fixture.makeUser('user')
    const video = await lesson(300, { title: 'Light [part 1]' })
    const second = await lesson(300, { title: 'Sound' })
    await addNote(person.claims, video, { at: 7, text: 'Photons\nare particles' })
    await addNote(person.claims, second, { at: 65, text: 'Waves' })
    const now = new Date('2026-11-26T10:00:00Z')
    const all = await exportNotes(person.claims, { siteUrl: 'https://lumen.example/', now })
    expect(all.fileName).toBe('lumen-notes.md')
    expect(all.markdown).toContain(`## [Light \\[part 1\\]](https://lumen.example/video/${video})`)
    expect(all.markdown).toContain(`- [0:07](https://lumen.example/video/${video}?t=7) Photons\n  are particles`)
    expect(all.markdown).toContain(`- [1:05](https://lumen.example/video/${second}?t=65) Waves`)
    expect(all.markdown.startsWith('# My notes\n\nExported from Lumen on 2026-11-26.')).toBe(true)
    const one = await exportNotes(person.claims, { videoId: video, siteUrl: 'https://lumen.example', now })
    expect(one.fileName).toBe('lumen-notes-light-part-1.md')
    expect(one.markdown).toContain('?t=7')
    expect(one.markdown).not.toContain('Waves')
  })

  describe('the video page', () => {
    /** A page answer: a Response (a redirect) or data() with its status. */
    type Answer = Response | { data: unknown; init?: { status?: number } | null }
    const unwrap = async (answer: Answer) =>
      answer instanceof Response
        ? { status: answer.status, location: answer.headers.get('Location'), data: null as unknown }
        : { status: answer.init?.status ?? 200, location: null, data: answer.data }
    const post = async (video: string, fields: Record<string, string>, cookie?: string) =>
      unwrap(
        (await notesAction({
          request: new Request(`http://lumen.test/video/${video}/notes`, {
            method: 'POST',
            body: new URLSearchParams(fields),
            headers: cookie ? { Cookie: cookie } : {},
          }),
          params: { id: video },
          context: { clientIp: '127.0.0.1' },
        })) as Answer,
      )

    it('a plain post adds the note and goes back to the video at its moment; the page lists only the learner’s own', async () => {
      const video = await lesson()
      const cookie = await sessionCookieHeader(fixture, learner)
      const added = await post(video, { intent: 'note-add', at: '0:07', text: 'From the page' }, cookie)
      expect(added.status).toBe(302)
      const [note] = await listVideoNotes(learner.claims, video)
      expect(note).toMatchObject({ atSeconds: 7, body: 'From the page' })
      expect(added.location).toBe(`/video/${video}?t=7#note-${note!.id}`)

      const notesOnPage = async (who: string) => {
        const page = await unwrap(
          (await videoPage({
            request: new Request(`http://lumen.test/video/${video}`, { headers: { Cookie: who } }),
            params: { id: video },
            context: { clientIp: '127.0.0.1' },
          })) as Answer,
        )
        return (page.data as { notes: unknown[] }).notes
      }
      expect(await notesOnPage(cookie)).toEqual([expect.objectContaining({ body: 'From the page' })])
      expect(await notesOnPage(await sessionCookieHeader(fixture, other))).toEqual([])
    })

    it('scripted posts answer data: edit, delete, and a refusal with the field at fault', async () => {
      const video = await lesson()
      const cookie = await sessionCookieHeader(fixture, learner)
      const added = await post(video, { intent: 'note-add', at: '12', text: 'Scripted', js: '1' }, cookie)
      expect(added.status).toBe(200)
      const { noteId } = added.data as { noteId: string }
      const bad = await post(video, { intent: 'note-edit', noteId, at: 'later', text: 'x', js: '1' }, cookie)
      expect(bad.status).toBe(400)
      expect(bad.data).toMatchObject({ ok: false, fieldErrors: { at: NOTE_MESSAGES.badMoment } })
      const edited = await post(video, { intent: 'note-edit', noteId, at: '0:15', text: 'Edited', js: '1' }, cookie)
      expect(edited.data).toMatchObject({ ok: true, message: NOTE_MESSAGES.saved })
      expect((await listVideoNotes(learner.claims, video))[0]).toMatchObject({ atSeconds: 15, body: 'Edited' })

      const stolen = await post(video, { intent: 'note-delete', noteId, js: '1' }, await sessionCookieHeader(fixture, other))
      expect(stolen.status).toBe(404)
      const deleted = await post(video, { intent: 'note-delete', noteId }, cookie)
      expect(deleted.status).toBe(302)
      expect(await listVideoNotes(learner.claims, video)).toEqual([])
    })

    it('sends a visitor to sign in', async () => {
      const video = await lesson()
      const answer = await post(video, { intent: 'note-add', at: '1', text: 'Anon' }).catch((error: unknown) =>
        unwrap(error as Response),
      )
      expect(answer.status).toBe(302)
      expect(answer.location).toMatch(/^\/login/)
    })

    it('the export page downloads Markdown with a safe file name', async () => {
      const video = await lesson(300, { title: 'Héllo "world"; evil\r\nheader' })
      const cookie = await sessionCookieHeader(fixture, learner)
      await addNote(learner.claims, video, { at: 7, text: 'Exported' })
      const answer = (await exportPage({
        request: new Request(`http://lumen.test/notes/export?videoId=${video}`, { headers: { Cookie: cookie } }),
        params: {},
        context: { clientIp: '127.0.0.1' },
      })) as Response
      expect(answer.status).toBe(200)
      expect(answer.headers.get('Content-Type')).toBe('text/markdown; charset=utf-8')
      expect(answer.headers.get('Content-Disposition')).toBe('attachment; filename="lumen-notes-hello-world-evil-header.md"')
      expect(await answer.text()).toContain(`[0:07](http://lumen.test/video/${video}?t=7) Exported`)
    })
  })

  describe('/api', () => {
    it('POST and GET /videos/{id}/notes, PUT and DELETE /notes/{id}: only one’s own', async () => {
      const person = await fixture.makeUser('user')
      const token = await tokenFor(fixture, person)
      const otherToken = await tokenFor(fixture, other)
      const creatorToken = await tokenFor(fixture, creator)
      const video = await lesson()
      expect((await call('POST', `/videos/${video}/notes`, { json: { at: 7, text: 'Anon' } })).status).toBe(401)
      expect((await call('GET', `/videos/${video}/notes`)).status).toBe(401)
      const bad = await call('POST', `/videos/${video}/notes`, { token, json: { at: 'soon', text: 'A note' } })
      expect(bad.status).toBe(400)
      expect(bad.json).toMatchObject({ error: NOTE_MESSAGES.badMoment, fieldErrors: { at: NOTE_MESSAGES.badMoment } })
      expect((await call('POST', `/videos/${randomUUID()}/notes`, { token, json: { at: 1, text: 'x' } })).status).toBe(404)

      const added = await call('POST', `/videos/${video}/notes`, { token, json: { at: '0:07', text: 'Via the API' } })
      expect(added.status).toBe(201)
      const note = added.json.note as { _id: string; at: number; link: string }
      expect(note).toMatchObject({ at: 7, text: 'Via the API', videoId: video, link: `/video/${video}?t=7` })
      expect((await call('GET', `/videos/${video}/notes`, { token })).json.notes).toEqual([
        expect.objectContaining({ _id: note._id }),
      ])

      for (const someone of [otherToken, creatorToken]) {
        expect((await call('GET', `/videos/${video}/notes`, { token: someone })).json.notes).toEqual([])
        expect((await call('PUT', `/notes/${note._id}`, { token: someone, json: { at: 1, text: 'Mine now' } })).status).toBe(404)
        expect((await call('DELETE', `/notes/${note._id}`, { token: someone })).status).toBe(404)
      }
      expect((await call('PUT', `/notes/${note._id}`, { json: { at: 1, text: 'Anon' } })).status).toBe(401)

      const changed = await call('PUT', `/notes/${note._id}`, { token, json: { at: 9, text: 'Changed' } })
      expect(changed.status).toBe(200)
      expect(changed.json.note).toMatchObject({ at: 9, text: 'Changed' })
      expect((await call('DELETE', `/notes/${note._id}`, { token })).json).toEqual({ message: NOTE_MESSAGES.deleted })
      expect((await call('DELETE', `/notes/${note._id}`, { token })).status).toBe(404)
    })

    it('GET /users/{id}/notes is one’s own only; GET /notes/export answers Markdown', async () => {
      const person = await fixture.makeUser('user')
      const token = await tokenFor(fixture, person)
      const video = await lesson(300, { title: 'Export me' })
      await call('POST', `/videos/${video}/notes`, { token, json: { at: 7, text: 'Seven' } })

      const mine = await call('GET', `/users/${person.id}/notes`, { token })
      expect(mine.status).toBe(200)
      expect(mine.body).toEqual([
        { video: { _id: video, title: 'Export me', creator: expect.any(String) }, notes: [expect.objectContaining({ at: 7 })] },
      ])
      const refused = await call('GET', `/users/${person.id}/notes`, { token: await tokenFor(fixture, other) })
      expect(refused.status).toBe(403)
      expect(refused.json.error).toBe(NOTE_MESSAGES.ownNotesOnly)
      expect((await call('GET', `/users/${person.id}/notes`, { token: await tokenFor(fixture, creator) })).status).toBe(403)
      expect((await call('GET', `/users/${person.id}/notes`)).status).toBe(401)

      const file = await call('GET', `/notes/export?videoId=${video}`, { token })
      expect(file.status).toBe(200)
      expect(file.headers.get('Content-Type')).toBe('text/markdown; charset=utf-8')
      expect(file.headers.get('Content-Disposition')).toBe('attachment; filename="lumen-notes-export-me.md"')
      expect(new TextDecoder().decode(file.body as ArrayBuffer)).toContain(`/video/${video}?t=7) Seven`)
      const otherFile = await call('GET', '/notes/export', { token: await tokenFor(fixture, other) })
      expect(new TextDecoder().decode(otherFile.body as ArrayBuffer)).not.toContain('Seven')
      expect((await call('GET', '/notes/export')).status).toBe(401)
      expect((await call('GET', `/notes/export?videoId=${randomUUID()}`, { token })).status).toBe(404)
    })

    it('/rest/v1 shows a learner’s notes to nobody else, and nobody writes one for someone else', async () => {
      const video = await lesson()
      await addNote(learner.claims, video, { at: 3, text: 'Rest check' })
      const read = async (token: string | null) => {
        const response = await fetch(`${fixture.running.url}/rest/v1/video_notes?select=user_id,body`, {
          headers: { apikey: fixture.running.anonKey, Authorization: `Bearer ${token ?? fixture.running.anonKey}` },
        })
        return { status: response.status, body: (await response.json()) as unknown }
      }
      const mine = (await read(await tokenFor(fixture, learner))).body as { user_id: string }[]
      expect(mine.length).toBeGreaterThan(0)
      expect(mine.every((row) => row.user_id === learner.id)).toBe(true)
      expect((await read(await tokenFor(fixture, other))).body).not.toEqual(
        expect.arrayContaining([expect.objectContaining({ user_id: learner.id })]),
      )
      expect((await read(await tokenFor(fixture, creator))).body).toEqual([])
      const visitor = await read(null)
      expect(Array.isArray(visitor.body) && visitor.body.length > 0).toBe(false)
      const planted = await fetch(`${fixture.running.url}/rest/v1/video_notes`, {
        method: 'POST',
        headers: {
          apikey: fixture.running.anonKey,
          Authorization: `Bearer ${await tokenFor(fixture, other)}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ user_id: learner.id, video_id: video, at_seconds: 1, body: 'Planted' }),
      })
      expect(planted.ok).toBe(false)
      expect((await listVideoNotes(learner.claims, video)).map((note) => note.body)).toEqual(['Rest check'])
    })
  })
})
