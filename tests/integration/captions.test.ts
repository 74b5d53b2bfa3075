import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CAPTION_MESSAGES } from '../../media/captions'
import { CAPTION_FORM_MESSAGES } from '../../app/lib/schemas/captions'
import { VIDEO_MESSAGES } from '../../app/lib/schemas/video'
import {
  deleteCaptionTrack,
  getCaptionCues,
  getCaptionVtt,
  listCaptionTracks,
  saveCaptionTrack,
} from '../../app/server/captions.server'
import { deleteVideo } from '../../app/server/videos.server'
import { refusal } from './support/refusal'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Caption tracks (ADR 0019) through their domain functions against a migrated
 * PostgreSQL: the refusals first (401, 400 with the file's own message, 403, 404),
 * then adding, replacing, reading as WebVTT and deleting — a refused file
 * changing nothing.
 */

const file = (text: string, name = 'captions.vtt') => ({ bytes: new TextEncoder().encode(text), name })
const VTT = 'WEBVTT\n\n00:00.500 --> 00:02.000\nKinetic energy is ½mv².\n\n00:02.000 --> 00:04.000\n<script>alert(1)</script>\n'
const SRT = '1\n00:00:01,000 --> 00:00:03,000\nL’énergie cinétique\n'

describe('caption tracks', () => {
  let fixture: VideoFixture
  let creator: Person
  let otherCreator: Person
  let learner: Person
  let admin: Person
  let video: string
  let privateVideo: string

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, otherCreator, learner, admin] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('admin'),
    ])
    video = await fixture.makeVideo(creator)
    privateVideo = await fixture.makeVideo(creator, { isPublic: false })
  })

  afterAll(async () => {
    await fixture?.close()
  })

  it('refuses visitors, bad input, other people and hidden videos with clear messages', async () => {
    const good = { videoId: video, language: 'en', label: '', file: file(VTT) }
    expect(await refusal(saveCaptionTrack(null, good))).toEqual({ status: 401, message: CAPTION_FORM_MESSAGES.loginToEdit })
    expect(await refusal(saveCaptionTrack(creator.claims, { ...good, language: '' }))).toEqual({
      status: 400,
      message: CAPTION_FORM_MESSAGES.languageRequired,
    })
    expect(await refusal(saveCaptionTrack(creator.claims, { ...good, language: 'english please' }))).toEqual({
      status: 400,
      message: CAPTION_FORM_MESSAGES.languageInvalid,
    })
    expect(await refusal(saveCaptionTrack(creator.claims, { ...good, file: null }))).toEqual({
      status: 400,
      message: CAPTION_FORM_MESSAGES.fileRequired,
    })
    expect(await refusal(saveCaptionTrack(creator.claims, { ...good, file: file('hello there', 'notes.txt') }))).toEqual({
      status: 400,
      message: CAPTION_MESSAGES.format,
    })
    expect(await refusal(saveCaptionTrack(learner.claims, good))).toEqual({
      status: 403,
      message: CAPTION_FORM_MESSAGES.notYourVideo,
    })
    expect(await refusal(saveCaptionTrack(otherCreator.claims, good))).toEqual({
      status: 403,
      message: CAPTION_FORM_MESSAGES.notYourVideo,
    })
    expect(await refusal(saveCaptionTrack(otherCreator.claims, { ...good, videoId: privateVideo }))).toEqual({
      status: 404,
      message: VIDEO_MESSAGES.notFound,
    })
    expect(await refusal(saveCaptionTrack(creator.claims, { ...good, videoId: 'not-a-uuid' }))).toEqual({
      status: 404,
      message: VIDEO_MESSAGES.notFound,
    })
    expect((await listCaptionTracks(creator.claims, video)).tracks).toEqual([])
  })

  it('adds a track the creator can edit and everyone who sees the video can read', async () => {
    const track = await saveCaptionTrack(creator.claims, { videoId: video, language: 'EN', label: '', file: file(VTT) })
    expect(track).toMatchObject({ language: 'en', label: 'English', source: 'upload', cueCount: 2 })

    expect(await listCaptionTracks(creator.claims, video)).toMatchObject({ canEdit: true, tracks: [{ id: track.id }] })
    expect(await listCaptionTracks(admin.claims, video)).toMatchObject({ canEdit: true })
    expect(await listCaptionTracks(learner.claims, video)).toMatchObject({ canEdit: false, tracks: [{ id: track.id }] })
    expect(await listCaptionTracks(null, video)).toMatchObject({ canEdit: false, tracks: [{ id: track.id }] })

    expect(await getCaptionCues(null, track.id)).toEqual([
      { startMs: 500, endMs: 2000, text: 'Kinetic energy is ½mv².' },
      { startMs: 2000, endMs: 4000, text: '<script>alert(1)</script>' },
    ])
    const vtt = await getCaptionVtt(learner.claims, track.id)
    expect(vtt).toContain('00:00:00.500 --> 00:00:02.000\nKinetic energy is ½mv².')
    expect(vtt).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('replaces the track of the same language, and a refused file leaves it as it was', async () => {
    const before = (await listCaptionTracks(creator.claims, video)).tracks
    const broken = 'WEBVTT\n\n00:00.000 --> 00:01.000\nok\n\n00:09.000 --> 00:03.000\nbackwards\n'
    expect(
      (await refusal(saveCaptionTrack(creator.claims, { videoId: video, language: 'en', label: '', file: file(broken) }))).status,
    ).toBe(400)
    expect((await listCaptionTracks(creator.claims, video)).tracks).toEqual(before)
    expect(await getCaptionCues(creator.claims, before[0]!.id)).toHaveLength(2)

    const replaced = await saveCaptionTrack(admin.claims, {
      videoId: video,
      language: 'en',
      label: 'English (edited)',
      file: file(SRT.replace('L’énergie cinétique', 'Kinetic energy'), 'edited.srt'),
    })
    expect(replaced).toMatchObject({ id: before[0]!.id, label: 'English (edited)', cueCount: 1 })
    expect(await getCaptionCues(null, replaced.id)).toEqual([{ startMs: 1000, endMs: 3000, text: 'Kinetic energy' }])
  })

  it('keeps one track per language, converting SRT', async () => {
    const french = await saveCaptionTrack(creator.claims, {
      videoId: video,
      language: 'fr',
      label: '',
      file: file(SRT, 'fr.srt'),
    })
    expect(french).toMatchObject({ language: 'fr', label: 'French', cueCount: 1 })
    expect((await listCaptionTracks(learner.claims, video)).tracks.map((track) => track.language).sort()).toEqual(['en', 'fr'])
  })

  it('hides the tracks of a private video from others', async () => {
    const track = await saveCaptionTrack(creator.claims, { videoId: privateVideo, language: 'en', label: '', file: file(VTT) })
    expect((await listCaptionTracks(learner.claims, privateVideo)).tracks).toEqual([])
    expect(await getCaptionCues(learner.claims, track.id)).toBeNull()
    expect(await getCaptionVtt(null, track.id)).toBeNull()
    expect(await getCaptionCues(admin.claims, track.id)).toHaveLength(2)
  })

  it('deletes a track only for its creator or an admin', async () => {
    const { tracks } = await listCaptionTracks(creator.claims, video)
    const french = tracks.find((track) => track.language === 'fr')!
    expect(await refusal(deleteCaptionTrack(null, french.id))).toEqual({
      status: 401,
      message: CAPTION_FORM_MESSAGES.loginToEdit,
    })
    expect(await refusal(deleteCaptionTrack(learner.claims, french.id))).toEqual({
      status: 403,
      message: CAPTION_FORM_MESSAGES.notYourVideo,
    })
    expect(await refusal(deleteCaptionTrack(creator.claims, randomUUID()))).toEqual({
      status: 404,
      message: CAPTION_FORM_MESSAGES.trackNotFound,
    })
    expect(await deleteCaptionTrack(creator.claims, french.id)).toEqual({ videoId: video })
    expect(await getCaptionCues(creator.claims, french.id)).toBeNull()
  })

  it('goes with its video', async () => {
    const { tracks } = await listCaptionTracks(creator.claims, video)
    await deleteVideo(creator.claims, video)
    expect(await getCaptionCues(admin.claims, tracks[0]!.id)).toBeNull()
  })
})
