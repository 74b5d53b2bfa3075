import { describe, expect, it } from 'vitest'
import {
  composeMasterPlaylist,
  firstSegmentUri,
  firstVariantUri,
  firstVideoPts,
  hlsQuotedString,
  parseMpegTs,
  subtitleMediaPlaylist,
  withTimestampMap,
} from './hls-subtitles'

const MASTER = [
  '#EXTM3U',
  '#EXT-X-VERSION:3',
  '#EXT-X-INDEPENDENT-SEGMENTS',
  '#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"',
  '360p/index.m3u8',
  '#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180,CODECS="avc1.64000d,mp4a.40.2"',
  '180p/index.m3u8',
  '',
].join('\n')

const uri = (track: { id: string }) => `/captions/${track.id}.m3u8?mpegts=1`

describe('composeMasterPlaylist', () => {
  it('leaves a master without tracks as it is', () => {
    expect(composeMasterPlaylist(MASTER, [], uri)).toBe(MASTER)
  })

  it('adds one subtitle rendition per track before the variants, and the group on every variant', () => {
    const out = composeMasterPlaylist(
      MASTER,
      [
        { id: 'a', language: 'en', label: 'English' },
        { id: 'b', language: 'pt-BR', label: 'Português' },
      ],
      uri,
    )
    const lines = out.split('\n')
    expect(lines.slice(0, 3)).toEqual(MASTER.split('\n').slice(0, 3))
    expect(lines[3]).toBe(
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,' +
        'CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound",' +
        'URI="/captions/a.m3u8?mpegts=1"',
    )
    expect(lines[4]).toContain('NAME="Português",LANGUAGE="pt-BR"')
    expect(lines.filter((line) => line.startsWith('#EXT-X-STREAM-INF:'))).toEqual([
      '#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2",SUBTITLES="subs"',
      '#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180,CODECS="avc1.64000d,mp4a.40.2",SUBTITLES="subs"',
    ])
    expect(lines.filter((line) => line && !line.startsWith('#'))).toEqual(['360p/index.m3u8', '180p/index.m3u8'])
  })

  it('never lets a label end the attribute or the line, nor a bad language tag in', () => {
    const out = composeMasterPlaylist(MASTER, [{ id: 'a', language: 'en"\n#X', label: 'Say "hi"\n#EXT-X-ENDLIST\r\u2028x' }], uri)
    const media = out.split('\n').filter((line) => line.startsWith('#EXT-X-MEDIA'))
    expect(media).toHaveLength(1)
    expect(media[0]).toContain(`NAME="Say 'hi' #EXT-X-ENDLIST x"`)
    expect(media[0]).not.toContain('LANGUAGE')
    expect(out.split('\n')).not.toContain('#EXT-X-ENDLIST')
    expect(hlsQuotedString('  \n ')).toBe('Captions')
  })

  it('names two tracks with the same label apart', () => {
    const out = composeMasterPlaylist(
      MASTER,
      [
        { id: 'a', language: 'en', label: 'Captions' },
        { id: 'b', language: 'en-GB', label: 'Captions' },
      ],
      uri,
    )
    expect(out).toContain('NAME="Captions",')
    expect(out).toContain('NAME="Captions (en-GB)",')
  })

  it('keeps a stored master that already has subtitles, or is not a playlist', () => {
    const own = MASTER.replace('#EXT-X-INDEPENDENT-SEGMENTS', '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="x",NAME="x",URI="x.m3u8"')
    expect(composeMasterPlaylist(own, [{ id: 'a', language: 'en', label: 'English' }], uri)).toBe(own)
    expect(composeMasterPlaylist('nonsense', [{ id: 'a', language: 'en', label: 'English' }], uri)).toBe('nonsense')
  })
})

describe('subtitle media playlist and segment', () => {
  it('is VOD with one segment as long as the video and the target duration rounded up', () => {
    expect(subtitleMediaPlaylist('/captions/a.vtt?mpegts=126000', 12.5)).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:13\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n' +
        '#EXTINF:12.500,\n/captions/a.vtt?mpegts=126000\n#EXT-X-ENDLIST\n',
    )
  })

  it('puts the X-TIMESTAMP-MAP in the WebVTT header', () => {
    expect(withTimestampMap('WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n', 132000)).toBe(
      'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:132000,LOCAL:00:00:00.000\n\n00:01.000 --> 00:02.000\nHi\n',
    )
  })

  it('reads an MPEG-TS timestamp only as a whole 33-bit number', () => {
    expect(parseMpegTs('126000')).toBe(126000)
    expect(parseMpegTs('-1')).toBeNull()
    expect(parseMpegTs('1e5')).toBeNull()
    expect(parseMpegTs(String(2 ** 33))).toBeNull()
    expect(parseMpegTs(null)).toBeNull()
  })

  it('finds the first variant and the first segment', () => {
    expect(firstVariantUri(MASTER)).toBe('360p/index.m3u8')
    expect(firstSegmentUri('#EXTM3U\n#EXTINF:4.0,\nsegment_000.ts\n#EXTINF:4.0,\nsegment_001.ts\n')).toBe('segment_000.ts')
  })
})

describe('firstVideoPts', () => {
  it('reads the first video PES timestamp through the PAT and PMT', () => {
    const packet = (pid: number, start: boolean, payload: number[]) => {
      const bytes = new Uint8Array(188).fill(0xff)
      bytes.set([0x47, (start ? 0x40 : 0) | (pid >> 8), pid & 0xff, 0x10])
      bytes.set(payload, 4)
      return bytes
    }
    // PAT: program 1 → PMT on PID 0x1000.
    const pat = packet(0, true, [0, 0x00, 0xb0, 13, 0, 1, 0xc1, 0, 0, 0, 1, 0xf0, 0x00, 0, 0, 0, 0])
    // PMT: AAC on 0x101, H.264 on 0x100.
    const pmt = packet(
      0x1000,
      true,
      [
        0, 0x02, 0xb0, 23, 0, 1, 0xc1, 0, 0, 0xe1, 0x00, 0xf0, 0, 0x0f, 0xe1, 0x01, 0xf0, 0, 0x1b, 0xe1, 0x00, 0xf0, 0, 0, 0, 0,
        0,
      ],
    )
    const pts = 132000
    const ptsBytes = [
      0x21 | ((Math.floor(pts / 2 ** 30) & 0x7) << 1),
      (pts >> 22) & 0xff,
      (((pts >> 15) & 0x7f) << 1) | 1,
      (pts >> 7) & 0xff,
      ((pts & 0x7f) << 1) | 1,
    ]
    const audio = packet(0x101, true, [0, 0, 1, 0xc0, 0, 0, 0x80, 0x80, 5, 0x21, 0, 1, 0, 1])
    const video = packet(0x100, true, [0, 0, 1, 0xe0, 0, 0, 0x80, 0x80, 5, ...ptsBytes])
    const stream = new Uint8Array([...pat, ...pmt, ...audio, ...video])
    expect(firstVideoPts(stream)).toBe(132000)
    expect(firstVideoPts(new Uint8Array(188 * 3).fill(0x47))).toBeNull()
    expect(firstVideoPts(new Uint8Array([1, 2, 3]))).toBeNull()
  })
})
