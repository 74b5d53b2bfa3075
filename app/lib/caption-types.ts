/** Caption tracks and cues as pages and the API show them (ADR 0019). */
export interface CaptionTrackView {
  id: string
  language: string
  label: string
  /** 'upload' for a file the creator gave, 'automatic' for one made by speech recognition. */
  source: 'upload' | 'automatic'
  cueCount: number
  updatedAt: string
}

export interface CueView {
  startMs: number
  endMs: number
  text: string
}

/** Where a track's WebVTT is served (app/routes/_media+/captions.$file.ts). */
export function captionTrackUrl(trackId: string): string {
  return `/captions/${trackId}.vtt`
}
