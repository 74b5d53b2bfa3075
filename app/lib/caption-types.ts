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

/** A track as the video page's player takes it: its WebVTT's address with what names it. */
export interface PageCaptionTrack {
  id: string
  language: string
  label: string
  source: 'upload' | 'automatic'
  src: string
}

export function pageCaptionTrack(track: Pick<CaptionTrackView, 'id' | 'language' | 'label' | 'source'>): PageCaptionTrack {
  return { id: track.id, language: track.language, label: track.label, source: track.source, src: captionTrackUrl(track.id) }
}
