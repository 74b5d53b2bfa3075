import { setFlagsFromString } from 'node:v8'

/**
 * How far V8 lets a server process's heap grow past what is alive before it
 * collects: 1.5× (V8's own small-device figure), instead of the up to 4×
 * it allows on a machine with this much memory.
 *
 * Why: under load most of a request's objects outlive a few young-generation
 * collections (the request is still in flight) and are promoted, so the old
 * space fills with garbage; with up to 4× of room, each server process's
 * heap reservation grew in steps for ~4 minutes to 400–650 MB around ~100 MB
 * of live data and swung ±30% with each full collection (ADR 0029, "memory
 * flat after warm-up"; docs/performance.md, "Runs of 2026-11-25 night"). Read by V8
 * each time it sets the next limit, so setting it once at start is enough;
 * it is no cap (`--max-old-space-size` stays V8's default, so a process that
 * needs more still gets it). Imported first by server.ts.
 */
export const HEAP_GROWING_PERCENT = 50

setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
