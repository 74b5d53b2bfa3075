import { z } from 'zod'

/**
 * Caption tracks (ADR 0019): the form that adds or replaces one, shared by the
 * browser and the server. The file itself is checked on the server by
 * media/captions.ts; its messages are there (CAPTION_MESSAGES).
 */
export const CAPTION_FORM_MESSAGES = {
  loginToEdit: 'Please login to manage captions',
  notYourVideo: 'You can only add captions to your own videos',
  trackNotFound: 'Caption track not found',
  languageRequired: 'Please choose a language',
  languageInvalid: 'Please enter a language tag such as en, fr or pt-BR',
  labelTooLong: 'Please keep the label under 60 characters',
  fileRequired: 'Please choose a caption file (.vtt or .srt)',
  fileHint: 'A WebVTT (.vtt) or SubRip (.srt) file under 1 MB.',
  tooManyTracks: 'A video can have at most 20 caption tracks',
  saved: 'Captions saved',
  deleted: 'Caption track deleted',
  saveFailed: 'Failed to save captions. Please try again.',
} as const

/** BCP 47 as the database checks it: a 2–3 letter language, then subtags. */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/

export const captionTrackSchema = z.object({
  language: z
    .string()
    .trim()
    .min(1, CAPTION_FORM_MESSAGES.languageRequired)
    .max(35, CAPTION_FORM_MESSAGES.languageInvalid)
    .regex(LANGUAGE_TAG, CAPTION_FORM_MESSAGES.languageInvalid)
    .transform(canonicalLanguage),
  label: z.string().trim().max(60, CAPTION_FORM_MESSAGES.labelTooLong).optional().default(''),
})

export type CaptionTrackInput = z.infer<typeof captionTrackSchema>

/** `PT-br` → `pt-BR`, as Intl canonicalises tags; unknown but well-formed tags stay as typed. */
export function canonicalLanguage(tag: string): string {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? tag
  } catch {
    return tag
  }
}

/** Made once, on first use: a new one per call costs far more than naming a language (the captions form lists a dozen). */
let languageNames: Intl.DisplayNames | undefined

/** The language's name in English (`pt-BR` → 'Brazilian Portuguese'), the label when none is given. */
export function languageName(tag: string): string {
  try {
    languageNames ??= new Intl.DisplayNames(['en'], { type: 'language' })
    return languageNames.of(tag) ?? tag
  } catch {
    return tag
  }
}

/** Languages offered first in the form's list; any other tag can be typed. */
export const COMMON_CAPTION_LANGUAGES = ['en', 'es', 'fr', 'de', 'pt-BR', 'it', 'nl', 'ar', 'hi', 'zh-Hans', 'ja', 'ko'] as const
