import { accessSync, constants, statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'

/** Memory-backed on Linux; used only when it is a tmpfs with room to spare. */
const MEMORY_DIR = '/dev/shm'
/** A PGlite copy is about 45 MB; a run holds a few dozen at once at most. */
const MIN_FREE_BYTES = 2 * 1024 ** 3
const TMPFS_MAGIC = 0x01021994

let root: string | undefined

/**
 * Where tests put the databases they copy and throw away: a memory-backed folder when the machine
 * has one with room (Linux's `/dev/shm`), else the system's temporary folder.
 *
 * A migrated PGlite is a folder of 1,275 files (45 MB). Copying it onto ext4 and removing it again
 * cost the kernel 0.2–1 s of CPU each time, rising as dirty pages piled up — 25 s of the integration
 * suite's CPU; onto tmpfs, 0.05 s. Only the template outlives a run (until a reboot empties it).
 * Not for everything a test writes: Deno refuses to read under `/dev`, so edge functions' folders
 * stay in the temporary folder.
 */
export function scratchRoot(): string {
  root ??= roomyTmpfs(MEMORY_DIR) ? MEMORY_DIR : tmpdir()
  return root
}

function roomyTmpfs(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK)
    const stats = statfsSync(dir)
    return stats.type === TMPFS_MAGIC && stats.bavail * stats.bsize >= MIN_FREE_BYTES
  } catch {
    return false
  }
}
