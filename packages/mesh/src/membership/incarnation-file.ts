/**
 * The Node incarnation store: the last incarnation as decimal text in `<dataDir>/incarnation`,
 * replaced atomically (write a temporary file, then rename), so a crash mid-write leaves the
 * previous value or the new one, never a torn one.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { IncarnationStore } from './incarnation.js'

export const INCARNATION_FILE = 'incarnation'
/** uint64 in decimal is at most 20 digits; anything longer is not ours. */
const MAX_FILE_BYTES = 32

export function incarnationFile(dataDir: string): IncarnationStore {
  const path = join(dataDir, INCARNATION_FILE)
  return {
    async load() {
      let text: string
      try {
        text = (await readFile(path, 'utf8')).trim()
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw err
      }
      // Damaged or foreign content: start time decides, and the next save repairs the file.
      if (text.length === 0 || text.length > MAX_FILE_BYTES || !/^[0-9]+$/.test(text)) return undefined
      // Start times make ~2^61; one at 2^63 or more is damage (and plus one must still fit a uint64).
      const value = BigInt(text)
      return value > 0n && value < 1n << 63n ? value : undefined
    },
    async save(incarnation) {
      await mkdir(dataDir, { recursive: true })
      const tmp = `${path}.tmp`
      await writeFile(tmp, `${incarnation}\n`)
      await rename(tmp, path)
    },
  }
}
