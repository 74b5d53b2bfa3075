/**
 * The app's view of the settings: the one schema in ops/env.ts (shared with
 * the stand-in, the worker and the scripts, which must not import app/).
 */
export * from '../../ops/env'
