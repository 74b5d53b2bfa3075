import { randomUUID } from 'node:crypto'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { createChunks, stringToBase64URL } from '@supabase/ssr'
import { connect, disconnect } from '../../../app/server/db.server'
import { pointAppEnvAt } from './app-env'
import { nodeRealtimeOptions } from '../../../db/supabase-node'
import { startStack, type RunningStack } from '../../support/stack'

/**
 * A running stand-in whose database the app's server code uses (`connect`),
 * with the env the app reads (SUPABASE_URL and keys) pointing at it, and
 * helpers to make people, videos and media objects as the worker would.
 */
export interface VideoFixture {
  running: RunningStack
  service: SupabaseClient
  makeUser(role?: 'user' | 'creator' | 'admin'): Promise<Person>
  /** A video row written as the worker leaves it (status ready with renditions), optionally private. */
  makeVideo(creator: Person, options?: { isPublic?: boolean; status?: 'ready' | 'processing' | 'failed' }): Promise<string>
  /** Puts the files a processed video has into Storage; returns their names by bucket. */
  putMedia(videoId: string, creator: Person): Promise<{ uploads: string[]; media: string[]; thumbnails: string[] }>
  objectNames(bucket: string, prefix: string): Promise<string[]>
  close(): Promise<void>
}

export interface Person {
  id: string
  email: string
  password: string
  claims: { sub: string; role: 'authenticated'; aud: string; email: string }
}

export async function openVideoFixture(database: 'pglite' | 'postgres' = 'postgres'): Promise<VideoFixture> {
  const running = await startStack({ database })
  const restoreEnv = pointAppEnvAt({
    SUPABASE_URL: running.url,
    SUPABASE_ANON_KEY: running.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: running.serviceRoleKey,
    SUPABASE_JWT_SECRET: running.jwtSecret,
    SESSION_SECRET: 'x'.repeat(40),
  })
  await disconnect()
  await connect(running.database)
  const pool = running.database.pool
  const service = createClient(running.url, running.serviceRoleKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false },
  })

  const fixture: VideoFixture = {
    running,
    service,
    async makeUser(role = 'user') {
      const email = `${role}-${randomUUID().slice(0, 8)}@example.test`
      const password = `Pw-${randomUUID()}`
      const { data, error } = await service.auth.admin.createUser({
        email,
        password,
        email_confirm: true,
        user_metadata: { username: `${role}_${randomUUID().slice(0, 8)}`, role: role === 'admin' ? 'user' : role },
      })
      if (error || !data.user) throw new Error(`could not create ${email}: ${error?.message}`)
      const id = data.user.id
      if (role === 'admin') await pool.query(`update public.profiles set role = 'admin' where id = $1`, [id])
      if (role === 'creator') await pool.query('update public.profiles set is_verified = true where id = $1', [id])
      return { id, email, password, claims: { sub: id, role: 'authenticated', aud: 'authenticated', email } }
    },
    async makeVideo(creator, { isPublic = true, status = 'ready' } = {}) {
      const id = randomUUID()
      const ready = status === 'ready'
      await pool.query(
        `insert into public.videos (id, creator_id, title, description, is_public, status, status_message, source_path, hls_path, mp4_path, thumbnail_path, width, height, duration_seconds)
         values ($1, $2, $3, 'A lesson about light.', $4, $5, $6, $7, $8, $9, $10, 320, 180, 2)`,
        [
          id,
          creator.id,
          `Optics ${id.slice(0, 6)}`,
          isPublic,
          status,
          status === 'failed' ? 'Please select a valid video file' : null,
          `${creator.id}/videos/${id}.mp4`,
          ready ? `videos/${id}/hls/master.m3u8` : null,
          ready ? `videos/${id}/video.mp4` : null,
          `${creator.id}/${id}-thumb.jpg`,
        ],
      )
      // The insert queued a media job; it is the worker's business, not these tests'.
      await pool.query('delete from public.media_jobs where video_id = $1', [id])
      return id
    },
    async putMedia(videoId, creator) {
      const put = async (bucket: string, name: string, body: Buffer, contentType: string) => {
        const { error } = await service.storage.from(bucket).upload(name, body, { contentType, upsert: true })
        if (error) throw new Error(`could not put ${bucket}/${name}: ${error.message}`)
        return name
      }
      const mp4 = Buffer.alloc(4096, 7)
      const playlist = Buffer.from('#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180\nv0/index.m3u8\n')
      return {
        uploads: [await put('uploads', `${creator.id}/videos/${videoId}.mp4`, mp4, 'video/mp4')],
        media: [
          await put('media', `videos/${videoId}/hls/master.m3u8`, playlist, 'application/vnd.apple.mpegurl'),
          await put('media', `videos/${videoId}/hls/v0/index.m3u8`, playlist, 'application/vnd.apple.mpegurl'),
          await put('media', `videos/${videoId}/hls/v0/segment_000.ts`, Buffer.alloc(1880, 0x47), 'video/mp2t'),
          await put('media', `videos/${videoId}/video.mp4`, mp4, 'video/mp4'),
        ],
        thumbnails: [await put('thumbnails', `${creator.id}/${videoId}-thumb.jpg`, Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'image/jpeg')],
      }
    },
    async objectNames(bucket, prefix) {
      const { rows } = await pool.query<{ name: string }>(
        'select name from storage.objects where bucket_id = $1 and starts_with(name, $2) order by name',
        [bucket, prefix],
      )
      return rows.map((row) => row.name)
    },
    async close() {
      await disconnect()
      await running.close()
      restoreEnv()
    },
  }
  return fixture
}

/** The cookies @supabase/ssr keeps a session in, for a request to `url` (as the browser would send them). */
export async function sessionCookieHeader(fixture: VideoFixture, person: Person): Promise<string> {
  const anon = createClient(fixture.running.url, fixture.running.anonKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const { data, error } = await anon.auth.signInWithPassword({ email: person.email, password: person.password })
  if (error || !data.session) throw new Error(`could not sign in: ${error?.message}`)
  const name = `sb-${new URL(fixture.running.url).hostname.split('.')[0]}-auth-token`
  const chunks = createChunks(name, `base64-${stringToBase64URL(JSON.stringify(data.session))}`)
  return chunks.map((chunk) => `${chunk.name}=${chunk.value}`).join('; ')
}
