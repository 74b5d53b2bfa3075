import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VIDEO_MESSAGES } from '../../app/lib/schemas/video'
import { addComment, deleteComment, listComments } from '../../app/server/comments.server'
import { likeQuote, likeVideo } from '../../app/server/likes.server'
import { deleteQuote, listQuotes } from '../../app/server/quotes.server'
import { deleteVideo, getVideo } from '../../app/server/videos.server'
import { recordPageView as recordView } from '../../app/server/views.server'
import { refusal } from './support/refusal'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The video page's domain functions against a migrated PostgreSQL and the
 * Storage stand-in: who sees what, likes and views counted right, the spec's
 * messages for every refusal (401/403/400/404 before the success case), and a
 * deleted video leaving no file behind.
 */

describe('video domain', () => {
  let fixture: VideoFixture
  let creator: Person
  let otherCreator: Person
  let learner: Person
  let secondLearner: Person
  let admin: Person
  let publicVideo: string
  let privateVideo: string

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, otherCreator, learner, secondLearner, admin] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('user'),
      fixture.makeUser('admin'),
    ])
    publicVideo = await fixture.makeVideo(creator)
    privateVideo = await fixture.makeVideo(creator, { isPublic: false })
  })

  afterAll(async () => {
    await fixture?.close()
  })

  describe('getVideo', () => {
    it('shows a public video to a learner with its creator, category and like state', async () => {
      const video = await getVideo(learner.claims, publicVideo)
      expect(video).toMatchObject({
        id: publicVideo,
        status: 'ready',
        categoryName: 'Other',
        hasLiked: false,
        isOwner: false,
        canDelete: false,
        creator: { id: creator.id },
        hlsPath: `videos/${publicVideo}/hls/master.m3u8`,
      })
      expect(video!.creator.username).toMatch(/^creator_/)
    })

    it('hides a private video from other users and visitors (null, the route answers 404)', async () => {
      expect(await getVideo(learner.claims, privateVideo)).toBeNull()
      expect(await getVideo(otherCreator.claims, privateVideo)).toBeNull()
      expect(await getVideo(null, privateVideo)).toBeNull()
    })

    it('shows a private video to its creator and to admins, who may delete it', async () => {
      expect(await getVideo(creator.claims, privateVideo)).toMatchObject({ isOwner: true, canDelete: true })
      expect(await getVideo(admin.claims, privateVideo)).toMatchObject({ isOwner: false, canDelete: true })
    })

    it('answers null for an unknown or malformed id', async () => {
      expect(await getVideo(learner.claims, randomUUID())).toBeNull()
      expect(await getVideo(learner.claims, 'not-a-uuid')).toBeNull()
      expect(await getVideo(learner.claims, "'; drop table videos; --")).toBeNull()
    })

    it('tells the owner why processing failed, and nobody else', async () => {
      const failed = await fixture.makeVideo(creator, { status: 'failed' })
      expect((await getVideo(creator.claims, failed))!.statusMessage).toBe('Please select a valid video file')
      expect((await getVideo(learner.claims, failed))!.statusMessage).toBeNull()
    })
  })

  describe('likeVideo', () => {
    it('404s for a video the caller cannot see', async () => {
      expect(await refusal(likeVideo(learner.claims, privateVideo))).toEqual({ status: 404, message: VIDEO_MESSAGES.notFound })
      expect(await refusal(likeVideo(learner.claims, randomUUID()))).toEqual({ status: 404, message: VIDEO_MESSAGES.notFound })
    })

    it('likes, counts every user once, and unlikes', async () => {
      const video = await fixture.makeVideo(creator)
      expect(await likeVideo(learner.claims, video)).toEqual({ likes: 1, hasLiked: true })
      expect(await likeVideo(secondLearner.claims, video)).toEqual({ likes: 2, hasLiked: true })
      expect(await likeVideo(learner.claims, video)).toEqual({ likes: 1, hasLiked: false })
      expect((await getVideo(secondLearner.claims, video))!).toMatchObject({ likes: 1, hasLiked: true })
    })

    it('is idempotent when the wanted state is given (a double submit does not undo itself)', async () => {
      const video = await fixture.makeVideo(creator)
      expect(await likeVideo(learner.claims, video, true)).toEqual({ likes: 1, hasLiked: true })
      expect(await likeVideo(learner.claims, video, true)).toEqual({ likes: 1, hasLiked: true })
      expect(await likeVideo(learner.claims, video, false)).toEqual({ likes: 0, hasLiked: false })
      expect(await likeVideo(learner.claims, video, false)).toEqual({ likes: 0, hasLiked: false })
    })

    it('keeps the count right under concurrent likes', async () => {
      const video = await fixture.makeVideo(creator)
      const people = await Promise.all([1, 2, 3, 4].map(() => fixture.makeUser('user')))
      await Promise.all(people.map((person) => likeVideo(person.claims, video, true)))
      expect((await getVideo(learner.claims, video))!.likes).toBe(4)
    })
  })

  describe('recordView', () => {
    it('counts one view per viewer per hour: reloading does not inflate it', async () => {
      const video = await fixture.makeVideo(creator)
      expect(await recordView(learner.claims, video)).toBe(true)
      expect(await recordView(learner.claims, video)).toBe(false)
      expect(await recordView(learner.claims, video)).toBe(false)
      expect(await recordView(secondLearner.claims, video)).toBe(true)
      expect((await getVideo(creator.claims, video))!.views).toBe(2)
    })

    it('does not count views of a video the viewer cannot see, nor anonymous ones', async () => {
      expect(await recordView(learner.claims, privateVideo)).toBe(false)
      expect(await recordView(null, publicVideo)).toBe(false)
      expect((await getVideo(creator.claims, privateVideo))!.views).toBe(0)
    })

    it('counts again in a new hour', async () => {
      const video = await fixture.makeVideo(creator)
      expect(await recordView(learner.claims, video)).toBe(true)
      // The previous view, moved back an hour, no longer blocks this hour's.
      await fixture.running.database.pool.query(
        `update public.video_views set viewed_hour = viewed_hour - interval '1 hour' where video_id = $1`,
        [video],
      )
      expect(await recordView(learner.claims, video)).toBe(true)
      expect((await getVideo(creator.claims, video))!.views).toBe(2)
    })
  })

  describe('comments', () => {
    it('refuses a visitor (401), an empty comment (400) and a hidden video (404)', async () => {
      expect(await refusal(addComment(null, publicVideo, 'Hi'))).toEqual({ status: 401, message: 'Please login to comment' })
      expect(await refusal(addComment(learner.claims, publicVideo, '   \n '))).toEqual({ status: 400, message: 'Please enter a comment' })
      expect(await refusal(addComment(learner.claims, publicVideo, 'x'.repeat(2001)))).toMatchObject({ status: 400 })
      expect(await refusal(addComment(learner.claims, privateVideo, 'Hi'))).toEqual({ status: 404, message: VIDEO_MESSAGES.notFound })
    })

    it('adds a trimmed comment, lists it newest first and counts it', async () => {
      const video = await fixture.makeVideo(creator)
      await addComment(learner.claims, video, '  First!  ')
      const added = await addComment(secondLearner.claims, video, 'Great explanation')
      expect(added).toMatchObject({ body: 'Great explanation', canDelete: true, user: { id: secondLearner.id } })
      const comments = await listComments(learner.claims, video)
      expect(comments.map((comment) => comment.body)).toEqual(['Great explanation', 'First!'])
      expect(comments.map((comment) => comment.canDelete)).toEqual([false, true])
      expect((await getVideo(learner.claims, video))!.comments).toBe(2)
    })

    it("lets the author, the video's creator and admins delete a comment; others get 403", async () => {
      const video = await fixture.makeVideo(creator)
      const first = await addComment(learner.claims, video, 'one')
      const second = await addComment(learner.claims, video, 'two')
      const third = await addComment(learner.claims, video, 'three')
      expect(await refusal(deleteComment(null, first.id))).toMatchObject({ status: 401 })
      expect(await refusal(deleteComment(secondLearner.claims, first.id))).toEqual({
        status: 403,
        message: VIDEO_MESSAGES.notYourComment,
      })
      expect(await refusal(deleteComment(learner.claims, randomUUID()))).toEqual({
        status: 404,
        message: VIDEO_MESSAGES.commentNotFound,
      })
      await deleteComment(learner.claims, first.id)
      await deleteComment(creator.claims, second.id)
      await deleteComment(admin.claims, third.id)
      expect(await listComments(learner.claims, video)).toEqual([])
      expect((await getVideo(learner.claims, video))!.comments).toBe(0)
    })

    it('lists no comments of a hidden video', async () => {
      await addComment(creator.claims, privateVideo, 'Note to self')
      expect(await listComments(learner.claims, privateVideo)).toEqual([])
      expect(await listComments(creator.claims, privateVideo)).toHaveLength(1)
    })
  })

  describe('quotes', () => {
    async function quoteBy(person: Person, video: string): Promise<string> {
      const { rows } = await fixture.running.database.pool.query<{ id: string }>(
        `insert into public.quotes (user_id, video_id, type, body) values ($1, $2, 'text', 'A fine point') returning id`,
        [person.id, video],
      )
      return rows[0]!.id
    }

    it('lists quotes with their creator, like count and the caller’s like', async () => {
      const video = await fixture.makeVideo(creator)
      const quote = await quoteBy(learner, video)
      expect(await likeQuote(secondLearner.claims, quote)).toEqual({ likes: 1, hasLiked: true })
      const [seen] = await listQuotes(secondLearner.claims, video)
      expect(seen).toMatchObject({ id: quote, type: 'text', body: 'A fine point', likes: 1, hasLiked: true, canDelete: false, response: null })
      const [own] = await listQuotes(learner.claims, video)
      expect(own).toMatchObject({ hasLiked: false, canDelete: true, creator: { id: learner.id } })
      expect(await likeQuote(secondLearner.claims, quote)).toEqual({ likes: 0, hasLiked: false })
    })

    it('refuses quote likes for visitors (401) and unknown quotes (404)', async () => {
      expect(await refusal(likeQuote(null, randomUUID()))).toEqual({ status: 401, message: 'Please login to like quotes' })
      expect(await refusal(likeQuote(learner.claims, randomUUID()))).toEqual({ status: 404, message: 'Quote not found' })
    })

    it("deletes with the spec's messages: 401, 403, 404, then success for the author and for admins", async () => {
      const video = await fixture.makeVideo(creator)
      const mine = await quoteBy(learner, video)
      const another = await quoteBy(learner, video)
      expect(await refusal(deleteQuote(null, mine))).toEqual({ status: 401, message: 'Please login to delete quotes' })
      expect(await refusal(deleteQuote(secondLearner.claims, mine))).toEqual({
        status: 403,
        message: 'You can only delete your own quotes',
      })
      // The video's creator is not the quote's author either.
      expect(await refusal(deleteQuote(creator.claims, mine))).toMatchObject({ status: 403 })
      expect(await refusal(deleteQuote(learner.claims, randomUUID()))).toEqual({ status: 404, message: 'Quote not found' })
      expect(await deleteQuote(learner.claims, mine)).toBe('Quote deleted successfully')
      expect(await deleteQuote(admin.claims, another)).toBe('Quote deleted successfully')
      expect(await listQuotes(learner.claims, video)).toEqual([])
    })
  })

  describe('deleteVideo', () => {
    it("refuses visitors (401), others (403 'You can only delete your own videos') and unknown ids (404)", async () => {
      const video = await fixture.makeVideo(creator)
      expect(await refusal(deleteVideo(null, video))).toMatchObject({ status: 401 })
      expect(await refusal(deleteVideo(learner.claims, video))).toEqual({ status: 403, message: 'You can only delete your own videos' })
      expect(await refusal(deleteVideo(otherCreator.claims, video))).toEqual({
        status: 403,
        message: 'You can only delete your own videos',
      })
      // A private video of someone else is not even there for them.
      expect(await refusal(deleteVideo(learner.claims, privateVideo))).toEqual({ status: 404, message: VIDEO_MESSAGES.notFound })
      expect(await refusal(deleteVideo(learner.claims, randomUUID()))).toEqual({ status: 404, message: VIDEO_MESSAGES.notFound })
      expect(await getVideo(creator.claims, video)).not.toBeNull()
    })

    it('lets the owner delete: the row and every file (upload, renditions, thumbnail) are gone', async () => {
      const video = await fixture.makeVideo(creator)
      const files = await fixture.putMedia(video, creator)
      expect(await fixture.objectNames('media', `videos/${video}/`)).toEqual([...files.media].sort())
      await addComment(learner.claims, video, 'Soon gone')
      expect(await deleteVideo(creator.claims, video)).toBe('video deleted successfully')
      expect(await getVideo(creator.claims, video)).toBeNull()
      expect(await fixture.objectNames('media', `videos/${video}/`)).toEqual([])
      expect(await fixture.objectNames('uploads', files.uploads[0]!)).toEqual([])
      expect(await fixture.objectNames('thumbnails', files.thumbnails[0]!)).toEqual([])
      // And the bytes themselves: a download of the old rendition fails.
      const { error } = await fixture.service.storage.from('media').download(files.media[3]!)
      expect(error).not.toBeNull()
    })

    it("lets an admin delete someone else's private video and its files", async () => {
      const video = await fixture.makeVideo(creator, { isPublic: false })
      await fixture.putMedia(video, creator)
      expect(await deleteVideo(admin.claims, video)).toBe('video deleted successfully')
      expect(await fixture.objectNames('media', `videos/${video}/`)).toEqual([])
      expect(await fixture.objectNames('uploads', `${creator.id}/videos/${video}`)).toEqual([])
    })
  })
})
