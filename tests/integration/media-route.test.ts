import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loader, parseMediaPath } from '../../app/routes/_media+/media.$'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * GET /media/<kind>/<id>/<path> (app/routes/_media+/media.$.tsx) against the Storage
 * stand-in: byte ranges, conditional requests, types and caching, and that a
 * private video's media is "not found" to everyone but its creator and admins.
 */

describe('media route', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let admin: Person
  let cookies: { creator: string; learner: string; admin: string }
  let publicVideo: string
  let privateVideo: string

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner, admin] = await Promise.all([fixture.makeUser('creator'), fixture.makeUser('user'), fixture.makeUser('admin')])
    publicVideo = await fixture.makeVideo(creator)
    privateVideo = await fixture.makeVideo(creator, { isPublic: false })
    await fixture.putMedia(publicVideo, creator)
    await fixture.putMedia(privateVideo, creator)
    cookies = {
      creator: await sessionCookieHeader(fixture, creator),
      learner: await sessionCookieHeader(fixture, learner),
      admin: await sessionCookieHeader(fixture, admin),
    }
  })

  afterAll(async () => {
    await fixture?.close()
  })

  async function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Response> {
    const request = new Request(`http://lumen.test${path}`, { method, headers })
    const response = await loader({ request, params: {}, context: { clientIp: '127.0.0.1' } })
    return response as Response
  }

  it('serves the whole MP4 with its type, length, ETag, byte ranges and year-long private caching', async () => {
    const response = await get(`/media/videos/${publicVideo}/video.mp4`, { Cookie: cookies.learner })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('video/mp4')
    expect(response.headers.get('content-length')).toBe('4096')
    expect(response.headers.get('accept-ranges')).toBe('bytes')
    expect(response.headers.get('etag')).toMatch(/^".+"$/)
    expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable')
    expect((await response.arrayBuffer()).byteLength).toBe(4096)
  })

  it('answers a Range with 206 and Content-Range', async () => {
    const response = await get(`/media/videos/${publicVideo}/video.mp4`, { Cookie: cookies.learner, Range: 'bytes=100-199' })
    expect(response.status).toBe(206)
    expect(response.headers.get('content-range')).toBe('bytes 100-199/4096')
    expect(response.headers.get('content-length')).toBe('100')
    expect((await response.arrayBuffer()).byteLength).toBe(100)
    const tail = await get(`/media/videos/${publicVideo}/video.mp4`, { Cookie: cookies.learner, Range: 'bytes=-10' })
    expect(tail.status).toBe(206)
    expect(tail.headers.get('content-range')).toBe('bytes 4086-4095/4096')
    await tail.arrayBuffer()
  })

  it('answers 416 to a range past the end', async () => {
    const response = await get(`/media/videos/${publicVideo}/video.mp4`, { Cookie: cookies.learner, Range: 'bytes=5000-6000' })
    expect(response.status).toBe(416)
    expect(response.headers.get('content-range')).toBe('bytes */4096')
  })

  it('answers 304 to If-None-Match with the current ETag', async () => {
    const first = await get(`/media/videos/${publicVideo}/video.mp4`, { Cookie: cookies.learner })
    const etag = first.headers.get('etag')!
    await first.arrayBuffer()
    const again = await get(`/media/videos/${publicVideo}/video.mp4`, { Cookie: cookies.learner, 'If-None-Match': etag })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    expect(await again.text()).toBe('')
  })

  it('serves playlists as HLS with a short cache and segments as MPEG-TS', async () => {
    const playlist = await get(`/media/videos/${publicVideo}/hls/master.m3u8`, { Cookie: cookies.learner })
    expect(playlist.status).toBe(200)
    expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl')
    expect(playlist.headers.get('cache-control')).toBe('private, max-age=60')
    expect(await playlist.text()).toContain('#EXTM3U')
    const segment = await get(`/media/videos/${publicVideo}/hls/v0/segment_000.ts`, { Cookie: cookies.learner })
    expect(segment.status).toBe(200)
    expect(segment.headers.get('content-type')).toBe('video/mp2t')
    expect(segment.headers.get('cache-control')).toBe('private, max-age=31536000, immutable')
    await segment.arrayBuffer()
  })

  it('serves a public video to a signed-out visitor too, never with public caching', async () => {
    const response = await get(`/media/videos/${publicVideo}/hls/master.m3u8`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).not.toContain('public')
    await response.text()
  })

  it('hides a private video’s media from other users and visitors (404)', async () => {
    for (const headers of [{ Cookie: cookies.learner }, {}] as Record<string, string>[]) {
      for (const file of ['video.mp4', 'hls/master.m3u8', 'hls/v0/segment_000.ts']) {
        const response = await get(`/media/videos/${privateVideo}/${file}`, headers)
        expect(response.status, file).toBe(404)
        expect(response.headers.get('cache-control')).toBe('no-store')
      }
    }
  })

  it('serves a private video’s media to its creator and to admins', async () => {
    for (const cookie of [cookies.creator, cookies.admin]) {
      const response = await get(`/media/videos/${privateVideo}/video.mp4`, { Cookie: cookie, Range: 'bytes=0-9' })
      expect(response.status).toBe(206)
      expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable')
      await response.arrayBuffer()
    }
  })

  it('serves a video quote’s response like its video: to those who can see the quoted video', async () => {
    const pool = fixture.running.database.pool
    const quoteOn = async (video: string) => {
      const { rows } = await pool.query<{ id: string }>(
        `insert into public.quotes (user_id, video_id, type, response_source_path, response_status, response_mp4_path)
         values ($1, $2, 'video', $3, 'ready', 'x') returning id`,
        [creator.id, video, `${creator.id}/quotes/${video}.mp4`],
      )
      const id = rows[0]!.id
      const { error } = await fixture.service.storage.from('media').upload(`quotes/${id}/video.mp4`, Buffer.alloc(512, 1), { contentType: 'video/mp4' })
      if (error) throw error
      return id
    }
    const onPublic = await quoteOn(publicVideo)
    const onPrivate = await quoteOn(privateVideo)
    const seen = await get(`/media/quotes/${onPublic}/video.mp4`, { Cookie: cookies.learner })
    expect(seen.status).toBe(200)
    expect(seen.headers.get('content-type')).toBe('video/mp4')
    await seen.arrayBuffer()
    expect((await get(`/media/quotes/${onPrivate}/video.mp4`, { Cookie: cookies.learner })).status).toBe(404)
    const own = await get(`/media/quotes/${onPrivate}/video.mp4`, { Cookie: cookies.creator })
    expect(own.status).toBe(200)
    await own.arrayBuffer()
  })

  it('answers HEAD without a body', async () => {
    const response = await get(`/media/videos/${publicVideo}/video.mp4`, { Cookie: cookies.learner }, 'HEAD')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-length')).toBe('4096')
    expect(response.body).toBeNull()
  })

  it('404s for unknown objects and videos', async () => {
    expect((await get(`/media/videos/${publicVideo}/hls/v9/segment_000.ts`, { Cookie: cookies.learner })).status).toBe(404)
    expect((await get(`/media/videos/00000000-0000-4000-8000-000000000000/video.mp4`, { Cookie: cookies.learner })).status).toBe(404)
  })

  it('refuses traversal and anything outside videos/<uuid>/ or quotes/<uuid>/ without asking Storage', async () => {
    const bad = [
      `/media/videos/${publicVideo}/..%2F..%2Fuploads%2F${creator.id}%2Fvideos%2F${publicVideo}.mp4`,
      `/media/videos/${publicVideo}/.hidden.mp4`,
      `/media/videos/${publicVideo}/hls/master.m3u8%00.mp4`,
      `/media/videos/not-a-uuid/video.mp4`,
      `/media/uploads/${publicVideo}/video.mp4`,
      `/media/videos/${publicVideo}/video.exe`,
      `/media/videos/${publicVideo}`,
      `/media/videos/${publicVideo}/a/b/c/d/e/f.ts`,
      `/media/videos/${publicVideo}/%E0%A4%A.mp4`,
    ]
    for (const path of bad) {
      const response = await get(path, { Cookie: cookies.creator })
      expect(response.status, path).toBe(404)
    }
    expect(parseMediaPath(`/media/videos/${publicVideo}/hls/360p/segment_001.ts`)).toEqual({
      objectName: `videos/${publicVideo}/hls/360p/segment_001.ts`,
      extension: 'ts',
    })
    expect(parseMediaPath(`/media/videos/${publicVideo}/%2e%2e/x.ts`)).toBeNull()
    expect(parseMediaPath(`/media/videos/${publicVideo}/../../uploads/x.mp4`)).toBeNull()
    // URLs resolve dot segments first (`%2e%2e` too): what is left is another video's path, checked like any other.
    const dotted = await get(`/media/videos/${publicVideo}/%2e%2e/${privateVideo}/video.mp4`, { Cookie: cookies.learner })
    expect(dotted.status).toBe(404)
  })
})
