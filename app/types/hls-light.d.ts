/**
 * hls.js ships its light build (no subtitles, alternate audio, DRM or CMCD)
 * as `hls.js/light` without its own declarations; its API is the full
 * build's, minus those features.
 */
declare module 'hls.js/light' {
  export * from 'hls.js'
  export { default } from 'hls.js'
}
