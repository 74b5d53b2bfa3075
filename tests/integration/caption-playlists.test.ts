import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loader as captionsLoader } from '../../app/routes/_media+/captions.$file'
import { loader as mediaLoader } from '../../app/routes/_media+/media.$'
import { saveCaptionTrack } from '../../app/server/captions.server'
import { makeClip } from './media/clips'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Caption tracks inside HLS (ADR 0026): the master playlist composed at serve
 * time with one subtitle rendition per track (0, 1, 2 tracks), each track's subtitle media
 * playlist and its WebVTT segment with an X-TIMESTAMP-MAP read from the real first segment,
 * labels that cannot break the playlist, and a private video's playlists "not found" to others.
 */

const vtt = (text: string) => ({ bytes: new TextEncoder().encode(`WEBVTT\n\n00:01.000 --> 00:02.000\n${text}\n`), name: 'c.vtt' })

describe('caption tracks in HLS', () => {
  let fixture: VideoFixture
  let creator: Person
  let stranger: Person
  let cookies: { creator: string; stranger: string }
  let none: string
  let one: string
  let two: string
  let hidden: string
  const trackIds: Record<string, string> = {}
  let workDir: string

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, stranger] = await Promise.all([fixture.makeUser('creator'), fixture.makeUser('user')])
    ;[none, one, two, hidden] = await Promise.all([
      fixture.makeVideo(creator),
      fixture.makeVideo(creator),
      fixture.makeVideo(creator),
      fixture.makeVideo(creator, { isPublic: false }),
    ])
    for (const id of [none, one, two, hidden]) await fixture.putMedia(id, creator)
    // `one` gets a real variant playlist and MPEG-TS segment, as the worker writes them.
    workDir = await mkdtemp(path.join(tmpdir(), 'lumen-subs-'))
    const segment = await makeClip(path.join(workDir, 'segment_000.ts'), { seconds: 1, output: ['-f', 'mpegts'] })
    const variant = '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nsegment_000.ts\n#EXT-X-ENDLIST\n'
    for (const [name, body, type] of [
      [`videos/${one}/hls/v0/index.m3u8`, Buffer.from(variant), 'application/vnd.apple.mpegurl'],
      [`videos/${one}/hls/v0/segment_000.ts`, await readFile(segment), 'video/mp2t'],
    ] as const) {
      const { error } = await fixture.service.storage.from('media').upload(name, body, { contentType: type, upsert: true })
      if (error) throw new Error(error.message)
    }
    trackIds.one = (
      await saveCaptionTrack(creator.claims, { videoId: one, language: 'en', label: 'English', file: vtt('One') })
    ).id
    trackIds.twoEn = (await saveCaptionTrack(creator.claims, { videoId: two, language: 'en', label: '', file: vtt('Two') })).id
    trackIds.twoFr = (
      await saveCaptionTrack(creator.claims, { videoId: two, language: 'fr', label: 'Français', file: vtt('Deux') })
    ).id
    // A label no form would keep, written straight to the table: it must not break the playlist.
    await fixture.running.database.pool.query('update public.caption_tracks set label = $1 where id = $2', [
      'Say "hi"\n#EXT-X-ENDLIST',
      trackIds.twoFr,
    ])
    trackIds.hidden = (
      await saveCaptionTrack(creator.claims, { videoId: hidden, language: 'en', label: '', file: vtt('Secret') })
    ).id
    cookies = { creator: await sessionCookieHeader(fixture, creator), stranger: await sessionCookieHeader(fixture, stranger) }
  })

  afterAll(async () => {
    await fixture?.close()
    if (workDir) await rm(workDir, { recursive: true, force: true })
  })

  const request = (url: string, cookie?: string) =>
    new Request(`http://lumen.test${url}`, { headers: cookie ? { Cookie: cookie } : {} })
  const master = async (video: string, cookie?: string, query = '') =>
    (await mediaLoader({
      request: request(`/media/videos/${video}/hls/master.m3u8${query}`, cookie),
      params: {},
      context: { clientIp: '127.0.0.1' },
    })) as Response
  const caption = async (url: string, cookie?: string) => {
    const file = new URL(url, 'http://lumen.test').pathname.replace('/captions/', '')
    return (await captionsLoader({
      request: request(url, cookie),
      params: { file },
      context: { clientIp: '127.0.0.1' },
    })) as Response
  }

  it('serves the stored master unchanged for a video without tracks, and with ?subtitles=none', async () => {
    const stored = '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180\nv0/index.m3u8\n'
    const plain = await master(none)
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-type')).toBe('application/vnd.apple.mpegurl')
    expect(await plain.text()).toBe(stored)
    const asked = await master(one, cookies.stranger, '?subtitles=none')
    expect(asked.status).toBe(200)
    expect(await asked.text()).toBe(stored)
  })

  it('adds one subtitle rendition, with the first video timestamp of the real segment', async () => {
    const response = await master(one)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/vnd.apple.mpegurl')
    expect(response.headers.get('cache-control')).toBe('private, max-age=60')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('etag')).toBeNull()
    const text = await response.text()
    const media = text.split('\n').filter((line) => line.startsWith('#EXT-X-MEDIA:'))
    expect(media).toHaveLength(1)
    const uri = /URI="([^"]+)"/.exec(media[0]!)![1]!
    // ffmpeg's mpegts muxer starts at 1.4 s (126000), the first picture after it.
    const mpegts = Number(/mpegts=(\d+)/.exec(uri)![1])
    expect(mpegts).toBeGreaterThanOrEqual(126000)
    expect(mpegts).toBeLessThan(126000 + 90000)
    expect(uri).toBe(`/captions/${trackIds.one}.m3u8?mpegts=${mpegts}`)
    expect(media[0]).toContain('TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO')
    expect(text).toContain('#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180,SUBTITLES="subs"\nv0/index.m3u8')

    const playlist = await caption(uri)
    expect(playlist.status).toBe(200)
    expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl')
    expect(playlist.headers.get('content-security-policy')).toContain('sandbox')
    // The fixture's video lasts 2 s: one segment of 2 s.
    expect(await playlist.text()).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n' +
        `#EXTINF:2.000,\n/captions/${trackIds.one}.vtt?mpegts=${mpegts}\n#EXT-X-ENDLIST\n`,
    )
    const segment = await caption(`/captions/${trackIds.one}.vtt?mpegts=${mpegts}`)
    expect(segment.status).toBe(200)
    expect(segment.headers.get('content-type')).toBe('text/vtt; charset=utf-8')
    expect(await segment.text()).toBe(
      `WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:${mpegts},LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000\nOne\n`,
    )
    // The `<track>` file stays plain WebVTT.
    expect(await (await caption(`/captions/${trackIds.one}.vtt`)).text()).not.toContain('X-TIMESTAMP-MAP')
  })

  it('adds two renditions, English first, with a label that cannot break the playlist', async () => {
    const text = await (await master(two, cookies.stranger)).text()
    const media = text.split('\n').filter((line) => line.startsWith('#EXT-X-MEDIA:'))
    expect(media).toHaveLength(2)
    expect(media[0]).toContain(`NAME="English",LANGUAGE="en"`)
    expect(media[1]).toContain(`NAME="Say 'hi' #EXT-X-ENDLIST",LANGUAGE="fr"`)
    // The stored master's segments cannot be read as MPEG-TS here: ffmpeg's start is assumed.
    expect(media[1]).toContain(`URI="/captions/${trackIds.twoFr}.m3u8?mpegts=126000"`)
    expect(text.split('\n').filter((line) => line === '#EXT-X-ENDLIST')).toHaveLength(0)
    expect(text.split('\n').filter((line) => line.startsWith('#EXT-X-STREAM-INF:'))).toEqual([
      '#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180,SUBTITLES="subs"',
    ])
  })

  it('hides a private video’s master, subtitle playlists and segments from strangers and visitors (404)', async () => {
    for (const cookie of [cookies.stranger, undefined]) {
      const response = await master(hidden, cookie)
      expect(response.status).toBe(404)
      expect(response.headers.get('cache-control')).toBe('no-store')
      await response.text()
      for (const url of [`/captions/${trackIds.hidden}.m3u8?mpegts=126000`, `/captions/${trackIds.hidden}.vtt?mpegts=126000`]) {
        const hiddenTrack = await caption(url, cookie)
        expect(hiddenTrack.status, url).toBe(404)
        expect(await hiddenTrack.text()).toBe('Not found')
      }
    }
    const own = await (await master(hidden, cookies.creator)).text()
    expect(own).toContain(`URI="/captions/${trackIds.hidden}.m3u8?mpegts=126000"`)
    expect((await caption(`/captions/${trackIds.hidden}.m3u8`, cookies.creator)).status).toBe(200)
  })

  it('refuses a malformed timestamp by falling back, and unknown tracks with 404', async () => {
    const bad = await (await caption(`/captions/${trackIds.one}.m3u8?mpegts=1e9`)).text()
    expect(bad).toContain(`/captions/${trackIds.one}.vtt?mpegts=126000`)
    expect((await caption(`/captions/00000000-0000-4000-8000-000000000000.m3u8`)).status).toBe(404)
  })
})
