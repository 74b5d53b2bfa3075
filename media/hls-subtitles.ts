/**
 * Caption tracks offered inside HLS (ADR 0026): the stored master
 * playlist with `#EXT-X-MEDIA:TYPE=SUBTITLES` renditions added at serve time,
 * each track's subtitle media playlist (one WebVTT segment as long as the
 * video), and the `X-TIMESTAMP-MAP` that lines its cues up with the MPEG-TS
 * segments. Pure text and bytes: no I/O, no app imports.
 */

/** Where ffmpeg's mpegts muxer starts a stream (1.4 s at 90 kHz): the fallback when a segment cannot be read. */
export const FFMPEG_MPEGTS_START = 126_000
/** MPEG-TS timestamps are 33 bits. */
const PTS_LIMIT = 2 ** 33

export const SUBTITLE_GROUP = 'subs'

export interface HlsSubtitleTrack {
  id: string
  language: string
  label: string
}

/**
 * A label as an HLS quoted-string: no `"`, no line breaks or other control
 * characters (they would end the attribute or the tag), never empty.
 */
export function hlsQuotedString(value: string, fallback = 'Captions'): string {
  const clean = value
    .replace(/"/g, "'")
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return clean || fallback
}

const LANGUAGE = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/

/** A whole MPEG-TS timestamp, or null. */
export function parseMpegTs(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,11}$/.test(value)) return null
  const n = Number(value)
  return n < PTS_LIMIT ? n : null
}

/**
 * The stored master with the tracks added: one `#EXT-X-MEDIA:TYPE=SUBTITLES` a track
 * (group `subs`, `DEFAULT=NO`: the player and the learner decide what shows) before the
 * first variant, and `SUBTITLES="subs"` on every `#EXT-X-STREAM-INF`. Unchanged when there
 * are no tracks or the stored master already has subtitles of its own.
 */
export function composeMasterPlaylist(
  master: string,
  tracks: readonly HlsSubtitleTrack[],
  uriOf: (track: HlsSubtitleTrack) => string,
): string {
  if (tracks.length === 0 || !master.startsWith('#EXTM3U') || /TYPE=SUBTITLES/i.test(master)) return master
  const names = new Set<string>()
  const media = tracks.map((track) => {
    let name = hlsQuotedString(track.label)
    if (names.has(name)) name = hlsQuotedString(`${name} (${track.language})`)
    names.add(name)
    const language = LANGUAGE.test(track.language) ? `,LANGUAGE="${track.language}"` : ''
    return (
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="${SUBTITLE_GROUP}",NAME="${name}"${language},DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,` +
      // Captions, not subtitles: they carry what is said and the sounds that matter (hls.js makes them kind "captions").
      `CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound",` +
      `URI="${uriOf(track)}"`
    )
  })
  const out: string[] = []
  let inserted = false
  for (const line of master.split(/\r?\n/)) {
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      if (!inserted) {
        out.push(...media)
        inserted = true
      }
      out.push(/(^|,)SUBTITLES=/.test(line.slice(18)) ? line : `${line},SUBTITLES="${SUBTITLE_GROUP}"`)
    } else {
      out.push(line)
    }
  }
  return inserted ? out.join('\n') : master
}

/**
 * A track's subtitle media playlist: VOD, one segment (the whole track as WebVTT) as long
 * as the video, `#EXT-X-TARGETDURATION` its duration rounded up (RFC 8216 §4.3.3.1).
 */
export function subtitleMediaPlaylist(segmentUri: string, durationSeconds: number): string {
  const duration = Math.max(durationSeconds, 0.001)
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${Math.max(1, Math.ceil(duration))}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    `#EXTINF:${duration.toFixed(3)},`,
    segmentUri,
    '#EXT-X-ENDLIST',
    '',
  ].join('\n')
}

/**
 * WebVTT as an HLS subtitle segment: `X-TIMESTAMP-MAP` in its header says that cue time 0
 * is the video's first MPEG-TS timestamp, so a cue at 1.0 s shows over the frame at 1.0 s
 * (without it, HLS clients — hls.js ≥ 1.6 too — take cue time 0 as MPEG-TS 0, 1.4 s early).
 * RFC 8216 §3.5's form, with colons: `X-TIMESTAMP-MAP=MPEGTS:<90 kHz>,LOCAL:<cue time>`.
 */
export function withTimestampMap(vtt: string, mpegts: number): string {
  const newline = vtt.indexOf('\n')
  const head = newline === -1 ? vtt : vtt.slice(0, newline)
  const rest = newline === -1 ? '\n' : vtt.slice(newline)
  return `${head}\nX-TIMESTAMP-MAP=MPEGTS:${mpegts},LOCAL:00:00:00.000${rest}`
}

/** The first variant's URI in a master playlist (the line after the first `#EXT-X-STREAM-INF`). */
export function firstVariantUri(master: string): string | null {
  const lines = master.split(/\r?\n/)
  const at = lines.findIndex((line) => line.startsWith('#EXT-X-STREAM-INF:'))
  if (at === -1) return null
  return (
    lines
      .slice(at + 1)
      .find((line) => line.trim() && !line.startsWith('#'))
      ?.trim() ?? null
  )
}

/** The first segment's URI in a media playlist. */
export function firstSegmentUri(playlist: string): string | null {
  return (
    playlist
      .split(/\r?\n/)
      .find((line) => line.trim() && !line.startsWith('#'))
      ?.trim() ?? null
  )
}

/**
 * The presentation timestamp (90 kHz) of the first video PES packet in the head of an
 * MPEG-TS segment — found through the PAT and PMT (H.264, H.265 or MPEG-2 video) — or
 * null when the bytes hold none.
 */
export function firstVideoPts(bytes: Uint8Array): number | null {
  const PACKET = 188
  let pmtPid = -1
  let videoPid = -1
  for (let at = 0; at + PACKET <= bytes.length; at += PACKET) {
    if (bytes[at] !== 0x47) return null
    const start = (bytes[at + 1]! & 0x40) !== 0
    const pid = ((bytes[at + 1]! & 0x1f) << 8) | bytes[at + 2]!
    const adaptation = (bytes[at + 3]! >> 4) & 0x3
    let payload = at + 4
    if (adaptation === 2) continue
    if (adaptation === 3) payload += 1 + bytes[at + 4]!
    if (payload >= at + PACKET) continue
    if (pid === 0 && start) {
      const section = payload + 1 + bytes[payload]!
      // PAT: the first program's PMT PID.
      const length = ((bytes[section + 1]! & 0x0f) << 8) | bytes[section + 2]!
      for (let entry = section + 8; entry + 4 <= section + 3 + length - 4; entry += 4) {
        const program = (bytes[entry]! << 8) | bytes[entry + 1]!
        if (program !== 0) {
          pmtPid = ((bytes[entry + 2]! & 0x1f) << 8) | bytes[entry + 3]!
          break
        }
      }
    } else if (pid === pmtPid && start && videoPid === -1) {
      const section = payload + 1 + bytes[payload]!
      const length = ((bytes[section + 1]! & 0x0f) << 8) | bytes[section + 2]!
      const infoLength = ((bytes[section + 10]! & 0x0f) << 8) | bytes[section + 11]!
      const end = Math.min(section + 3 + length - 4, at + PACKET)
      for (let entry = section + 12 + infoLength; entry + 5 <= end;) {
        const type = bytes[entry]!
        const esPid = ((bytes[entry + 1]! & 0x1f) << 8) | bytes[entry + 2]!
        if (type === 0x1b || type === 0x24 || type === 0x02) {
          videoPid = esPid
          break
        }
        entry += 5 + (((bytes[entry + 3]! & 0x0f) << 8) | bytes[entry + 4]!)
      }
    } else if (pid === videoPid && start) {
      if (bytes[payload] !== 0 || bytes[payload + 1] !== 0 || bytes[payload + 2] !== 1) return null
      const flags = bytes[payload + 7]!
      if ((flags & 0x80) === 0) return null
      const p = payload + 9
      return (
        (bytes[p]! & 0x0e) * 536_870_912 + // bits 32..30 (<< 29)
        (bytes[p + 1]! << 22) +
        ((bytes[p + 2]! & 0xfe) << 14) +
        (bytes[p + 3]! << 7) +
        ((bytes[p + 4]! & 0xfe) >> 1)
      )
    }
  }
  return null
}
