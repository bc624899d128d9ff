import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SnapshotPersistence } from './metadata-sync.js'

/** The metadata snapshot as a file in the data directory, replaced atomically. */
export function snapshotFile(dataDir: string, name = 'metadata.snapshot'): SnapshotPersistence {
  const path = join(dataDir, name)
  return {
    async load() {
      try {
        return await readFile(path)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw err
      }
    },
    async save(snapshot) {
      await mkdir(dataDir, { recursive: true })
      await writeFile(`${path}.tmp`, snapshot)
      await rename(`${path}.tmp`, path)
    },
  }
}
