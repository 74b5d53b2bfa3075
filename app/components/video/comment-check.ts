import { checkWithSchema } from '~/components/ui/field'
import { commentSchema } from '~/lib/schemas/video'

/** A comment's text is checked again with the shared schema as it changes (the video page and the reel viewer's sheet). */
export const checkCommentField = checkWithSchema(commentSchema, (form) => ({ body: form.get('body') ?? '' }))
