import { describe, expect, it } from 'vitest'
import { commentSchema, deleteVideoSchema, likeSchema, shareLink } from './video'

describe('video page schemas', () => {
  it('trims comments and refuses empty ones with the spec’s message', () => {
    expect(commentSchema.parse({ body: '  Nice  ' })).toEqual({ body: 'Nice' })
    expect(commentSchema.safeParse({ body: ' \n\t ' }).error?.issues[0]?.message).toBe('Please enter a comment')
    expect(commentSchema.safeParse({}).error?.issues[0]?.message).toBe('Please enter a comment')
    expect(commentSchema.safeParse({ body: 'x'.repeat(2001) }).success).toBe(false)
    expect(commentSchema.safeParse({ body: 'a\u0000b' }).success).toBe(false)
  })

  it('reads the wanted like state', () => {
    expect(likeSchema.parse({ like: 'true' })).toEqual({ like: true })
    expect(likeSchema.parse({ like: 'false' })).toEqual({ like: false })
    expect(likeSchema.safeParse({ like: 'yes' }).success).toBe(false)
  })

  it('needs the delete confirmation ticked', () => {
    expect(deleteVideoSchema.safeParse({ confirm: 'yes' }).success).toBe(true)
    expect(deleteVideoSchema.safeParse({}).error?.issues[0]?.message).toBe('Please confirm that you want to delete this video')
  })

  it('builds share links, refusing ids under 10 characters with the spec’s message', () => {
    expect(shareLink('https://lumen.example/', '3f2b1c1e-1111-4222-8333-444455556666')).toEqual({
      ok: true,
      url: 'https://lumen.example/video/3f2b1c1e-1111-4222-8333-444455556666',
    })
    expect(shareLink('https://lumen.example', '123456789')).toEqual({
      ok: false,
      message: 'Unable to create share link: Invalid video ID',
    })
    expect(shareLink('https://lumen.example', '1234567890').ok).toBe(true)
  })
})
