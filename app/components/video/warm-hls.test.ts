import { describe, expect, it } from 'vitest'
import { firstSegments, lowestVariant } from './warm-hls'

const base = 'http://lumen.test/media/videos/0b5c/hls/master.m3u8'

describe('warm-hls playlist reading', () => {
  it('picks the variant with the lowest bandwidth, whatever the order', () => {
    const master = [
      '#EXTM3U',
      '#EXT-X-STREAM-INF:BANDWIDTH=2296000,RESOLUTION=960x540,CODECS="avc1.64001f,mp4a.40.2"',
      '540p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=229000,RESOLUTION=416x234,CODECS="avc1.64001f,mp4a.40.2"',
      '234p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=906000,RESOLUTION=640x360,CODECS="avc1.64001f,mp4a.40.2"',
      '360p/index.m3u8',
    ].join('\n')
    expect(lowestVariant(master, base)).toBe('http://lumen.test/media/videos/0b5c/hls/234p/index.m3u8')
    expect(lowestVariant('#EXTM3U\n', base)).toBeNull()
  })

  it('finds the first segment (and an fMP4 init segment) of a media playlist', () => {
    const variant = 'http://lumen.test/media/videos/0b5c/hls/234p/index.m3u8'
    const ts = [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:4',
      '#EXTINF:4.000,',
      'segment_000.ts',
      '#EXTINF:4.000,',
      'segment_001.ts',
    ].join('\r\n')
    expect(firstSegments(ts, variant)).toEqual(['http://lumen.test/media/videos/0b5c/hls/234p/segment_000.ts'])
    const fmp4 = ['#EXTM3U', '#EXT-X-MAP:URI="init.mp4"', '#EXTINF:4.0,', 'seg_0.m4s'].join('\n')
    expect(firstSegments(fmp4, variant)).toEqual([
      'http://lumen.test/media/videos/0b5c/hls/234p/init.mp4',
      'http://lumen.test/media/videos/0b5c/hls/234p/seg_0.m4s',
    ])
  })
})
