import { describe, expect, it } from 'vitest'
import { DEMUXER_ALLOW_LIST, safeInputArgs } from './safe-input'

describe('safeInputArgs', () => {
  it('allows only local files and the accepted video demuxers by default', () => {
    expect(safeInputArgs('/tmp/x')).toEqual([
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      DEMUXER_ALLOW_LIST,
      '-i',
      'file:/tmp/x',
    ])
  })

  it('names the demuxer, puts input options before -i and can leave out the demuxer list', () => {
    expect(safeInputArgs('http:evil', { format: 'png_pipe', formats: false, before: ['-noautorotate'] })).toEqual([
      '-protocol_whitelist',
      'file',
      '-noautorotate',
      '-f',
      'png_pipe',
      '-i',
      'file:http:evil',
    ])
  })

  it('always ends with the file: prefixed input, after every input option', () => {
    const args = safeInputArgs('a b', { format: 'mov', before: ['-ss', '1.000'] })
    expect(args.slice(-2)).toEqual(['-i', 'file:a b'])
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'))
    expect(args.indexOf('-protocol_whitelist')).toBe(0)
  })
})
