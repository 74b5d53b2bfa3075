import { describe, expect, it } from 'vitest'
import { avatarUrl, mediaPathUrl, mediaUrls, parseYouTubeId, resizedImage, responsiveImage, thumbnailUrl } from './media-urls'

describe('parseYouTubeId', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['  https://www.youtube.com/watch?v=dQw4w9WgXcQ  ', 'dQw4w9WgXcQ'],
  ])('reads %s', (url, id) => {
    expect(parseYouTubeId(url)).toBe(id)
  })

  it.each([
    'https://evil.example/watch?v=dQw4w9WgXcQ',
    'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ"onload="x',
    'https://www.youtube.com/playlist?list=PL123',
    'https://user:pw@www.youtube.com/watch?v=dQw4w9WgXcQ',
    'javascript:alert(1)//youtu.be/dQw4w9WgXcQ',
    'ftp://youtu.be/dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ/extra',
    'not a url',
    '',
  ])('refuses %s', (url) => {
    expect(parseYouTubeId(url)).toBeNull()
  })
})

describe('mediaUrls', () => {
  const id = '3f2b1c1e-1111-4222-8333-444455556666'

  it('serves renditions through /media and thumbnails from the public bucket', () => {
    expect(
      mediaUrls(
        { id, hls_path: `videos/${id}/hls/master.m3u8`, mp4_path: `videos/${id}/video.mp4`, thumbnail_path: 'u1/thumb 1.jpg' },
        'https://project.supabase.co/',
      ),
    ).toEqual({
      hlsUrl: `/media/videos/${id}/hls/master.m3u8`,
      mp4Url: `/media/videos/${id}/video.mp4`,
      posterUrl: 'https://project.supabase.co/storage/v1/object/public/thumbnails/u1/thumb%201.jpg',
      embedUrl: null,
    })
  })

  it('embeds YouTube links from youtube-nocookie.com, with YouTube’s poster when there is no thumbnail', () => {
    const urls = mediaUrls({ id, external_url: 'https://youtu.be/dQw4w9WgXcQ' }, '')
    expect(urls.embedUrl).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ\?/)
    expect(urls.posterUrl).toBe('https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg')
    expect(urls.hlsUrl).toBeNull()
  })

  it('answers null for missing paths and paths outside the media folders', () => {
    expect(mediaPathUrl(null)).toBeNull()
    expect(mediaPathUrl('uploads/x.mp4')).toBeNull()
    expect(thumbnailUrl('', null)).toBeNull()
    expect(avatarUrl('http://localhost:3000', 'u1/me.png')).toBe(
      'http://localhost:3000/storage/v1/object/public/avatars/u1/me.png',
    )
  })

  it("offers a public Storage image at a card's widths, through Storage's image transformations", () => {
    const url = thumbnailUrl('http://localhost:3000', 'u1/v 1.jpg')!
    const image = responsiveImage(url)
    expect(image.src).toBe('http://localhost:3000/storage/v1/render/image/public/thumbnails/u1/v%201.jpg?width=720')
    expect(image.srcSet?.split(', ')).toEqual([
      'http://localhost:3000/storage/v1/render/image/public/thumbnails/u1/v%201.jpg?width=360 360w',
      'http://localhost:3000/storage/v1/render/image/public/thumbnails/u1/v%201.jpg?width=540 540w',
      'http://localhost:3000/storage/v1/render/image/public/thumbnails/u1/v%201.jpg?width=720 720w',
      'http://localhost:3000/storage/v1/render/image/public/thumbnails/u1/v%201.jpg?width=1080 1080w',
    ])
    expect(responsiveImage(thumbnailUrl('', 'u1/v.jpg')!).src).toBe(
      '/storage/v1/render/image/public/thumbnails/u1/v.jpg?width=720',
    )
  })

  it('caps a poster at a width, through the same transformations', () => {
    expect(resizedImage('/storage/v1/object/public/thumbnails/u1/v.jpg', 1280)).toBe(
      '/storage/v1/render/image/public/thumbnails/u1/v.jpg?width=1280',
    )
    expect(resizedImage('https://i.ytimg.com/vi/x/hqdefault.jpg', 1280)).toBe('https://i.ytimg.com/vi/x/hqdefault.jpg')
  })

  it('uses any other image as it is', () => {
    expect(responsiveImage('https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg')).toEqual({
      src: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
    })
    expect(responsiveImage('/storage/v1/object/public/thumbnails/v.jpg?t=1')).toEqual({
      src: '/storage/v1/object/public/thumbnails/v.jpg?t=1',
    })
  })
})
