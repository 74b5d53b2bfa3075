import { readFile, stat, truncate, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileTypeFromFile } from 'file-type'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jpegOrientation, reencodeThumbnail, validateImageFile } from '../../../media/validate-image'
import { ffmpeg, ffprobeJson, makeClip, scratchDir } from './clips'

/**
 * Thumbnails: real images by their bytes, 5 MB at most, and re-encoded
 * before anyone sees them — no EXIF (camera, GPS) survives, and the
 * picture stays upright.
 */
const INVALID = 'Please select a valid image file (JPEG, PNG, WebP or GIF)'

describe('thumbnails', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  const file = (name: string) => path.join(scratch.dir, name)

  const formats: Record<string, string[]> = {
    jpg: ['-f', 'mjpeg'],
    png: ['-c:v', 'png', '-f', 'image2'],
    webp: ['-f', 'webp'],
    gif: ['-f', 'gif'],
  }

  async function picture(name: string, width = 320, height = 180) {
    const format = formats[name.slice(name.lastIndexOf('.') + 1)]!
    await ffmpeg(['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}`, '-frames:v', '1', ...format, file(name)])
    return file(name)
  }

  beforeAll(async () => {
    scratch = await scratchDir('thumbnails')
  })

  afterAll(async () => {
    await scratch?.remove()
  })

  it('accepts JPEG, PNG, WebP and GIF by content, with their size', async () => {
    for (const name of ['a.jpg', 'a.png', 'a.webp', 'a.gif']) {
      const result = await validateImageFile(await picture(name))
      expect(result, name).toMatchObject({ ok: true, image: { ext: name.slice(2), width: 320, height: 180 } })
    }
  })

  it('refuses an SVG (it can carry script), saying so', async () => {
    await writeFile(file('logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>')
    expect(await validateImageFile(file('logo.svg'))).toEqual({
      ok: false,
      message: `${INVALID}. SVG images are not accepted.`,
    })
  })

  it('refuses HTML named .jpg, a video, and zero bytes', async () => {
    await writeFile(file('page.jpg'), '<html><body onload="alert(1)"></body></html>')
    expect(await validateImageFile(file('page.jpg'))).toEqual({ ok: false, message: `${INVALID}.` })
    await makeClip(file('clip.jpg'), { width: 64, height: 36, seconds: 1, audio: false, output: ['-f', 'mp4'] })
    expect(await validateImageFile(file('clip.jpg'))).toEqual({ ok: false, message: `${INVALID}.` })
    await writeFile(file('empty.png'), Buffer.alloc(0))
    expect(await validateImageFile(file('empty.png'))).toEqual({ ok: false, message: `${INVALID}. This file is empty.` })
  })

  it('refuses 5 MB + 1 byte with the spec message', async () => {
    await picture('big.png')
    await truncate(file('big.png'), 5_242_881)
    expect(await validateImageFile(file('big.png'))).toEqual({
      ok: false,
      message: 'Thumbnail file is too large. Maximum size is 5MB',
    })
  })

  it('refuses an animated WebP, which cannot be decoded, saying so', async () => {
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=64x36:rate=5', '-frames:v', '3', '-c:v', 'libwebp_anim', '-loop', '0', '-f', 'webp', file('anim.webp')])
    expect(await validateImageFile(file('anim.webp'))).toEqual({
      ok: false,
      message: `${INVALID}. Animated WebP images are not accepted; use a still image.`,
    })
  })

  it('refuses a damaged image', async () => {
    const png = await readFile(await picture('whole.png'))
    await writeFile(file('half.png'), png.subarray(0, 40))
    const result = await validateImageFile(file('half.png'))
    expect(result.ok).toBe(false)
  })

  it('re-encodes a JPEG without its EXIF (camera make, orientation) and turns it upright', async () => {
    const original = await readFile(await picture('camera.jpg', 320, 180))
    const withExif = Buffer.concat([original.subarray(0, 2), exifSegment({ make: 'LumenTestCam', orientation: 6 }), original.subarray(2)])
    await writeFile(file('camera-exif.jpg'), withExif)
    expect(await jpegOrientation(file('camera-exif.jpg'))).toBe(6)
    expect((await validateImageFile(file('camera-exif.jpg'))).ok).toBe(true)

    const result = await reencodeThumbnail(file('camera-exif.jpg'), file('clean.jpg'))
    // Orientation 6 means "rotate 90° clockwise to view": the published picture is portrait.
    expect(result).toMatchObject({ width: 180, height: 320 })
    const clean = await readFile(file('clean.jpg'))
    expect(clean.includes('Exif')).toBe(false)
    expect(clean.includes('LumenTestCam')).toBe(false)
    expect(clean.includes('Lavc')).toBe(false)
    expect(await fileTypeFromFile(file('clean.jpg'))).toEqual({ ext: 'jpg', mime: 'image/jpeg' })
    expect(await jpegOrientation(file('clean.jpg'))).toBeNull()
  })

  it('re-encodes a large PNG to a JPEG no larger than 1280 px, keeping its shape', async () => {
    await picture('wide.png', 2000, 1000)
    const result = await reencodeThumbnail(file('wide.png'), file('wide.jpg'))
    expect(result).toMatchObject({ width: 1280, height: 640 })
    expect(result.sizeBytes).toBe((await stat(file('wide.jpg'))).size)
    const probe = await ffprobeJson(file('wide.jpg'))
    expect(probe.streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 1280, height: 640 })
  })

  it('never enlarges a small picture', async () => {
    await picture('small.gif', 100, 50)
    expect(await reencodeThumbnail(file('small.gif'), file('small.jpg'))).toMatchObject({ width: 100, height: 50 })
  })
})

/** An APP1 segment with a big-endian TIFF IFD holding Make and Orientation, as cameras write it. */
function exifSegment({ make, orientation }: { make: string; orientation: number }): Buffer {
  const makeBytes = Buffer.from(`${make}\0`, 'latin1')
  const entries = 2
  const ifdOffset = 8
  const dataOffset = ifdOffset + 2 + entries * 12 + 4
  const tiff = Buffer.alloc(dataOffset + makeBytes.length)
  tiff.write('MM', 0, 'latin1')
  tiff.writeUInt16BE(42, 2)
  tiff.writeUInt32BE(ifdOffset, 4)
  tiff.writeUInt16BE(entries, ifdOffset)
  let entry = ifdOffset + 2
  tiff.writeUInt16BE(0x010f, entry) // Make, ASCII
  tiff.writeUInt16BE(2, entry + 2)
  tiff.writeUInt32BE(makeBytes.length, entry + 4)
  tiff.writeUInt32BE(dataOffset, entry + 8)
  entry += 12
  tiff.writeUInt16BE(0x0112, entry) // Orientation, SHORT
  tiff.writeUInt16BE(3, entry + 2)
  tiff.writeUInt32BE(1, entry + 4)
  tiff.writeUInt16BE(orientation, entry + 8)
  makeBytes.copy(tiff, dataOffset)
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff])
  const header = Buffer.from([0xff, 0xe1, 0, 0])
  header.writeUInt16BE(payload.length + 2, 2)
  return Buffer.concat([header, payload])
}
