/**
 * This machine's raw sequential write speed, the reference a log's append throughput is read
 * against: `count` writes of one reused `blockBytes` buffer, then a single fdatasync, timed
 * together. Reusing one buffer keeps the measurement from raising the process's RSS.
 */
import { randomFillSync } from 'node:crypto'
import { open, rm } from 'node:fs/promises'
import { join } from 'node:path'

export interface RawWriteResult {
  bytes: number
  seconds: number
  /** Bytes / 2^20 per second, fdatasync included. */
  mibPerSecond: number
}

export async function measureRawWrite(dir: string, blockBytes = 1 << 20, count = 1024): Promise<RawWriteResult> {
  const file = join(dir, 'raw-write.bin')
  // Random content, so no layer below can shortcut zeroes.
  const block = randomFillSync(new Uint8Array(blockBytes))
  const handle = await open(file, 'w')
  try {
    const started = performance.now()
    for (let i = 0; i < count; i++) {
      let done = 0
      while (done < blockBytes) {
        const { bytesWritten } = await handle.write(block, done, blockBytes - done)
        done += bytesWritten
      }
    }
    await handle.datasync()
    const seconds = (performance.now() - started) / 1000
    const bytes = blockBytes * count
    return { bytes, seconds, mibPerSecond: bytes / 2 ** 20 / seconds }
  } finally {
    await handle.close()
    await rm(file, { force: true })
  }
}
