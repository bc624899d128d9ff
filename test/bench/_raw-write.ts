/**
 * This machine's raw sequential write speed, the reference a log's append throughput is read
 * against: `count` writes of one reused `blockBytes` buffer, then a single fdatasync, timed
 * together. Reusing one buffer keeps the measurement from raising the process's RSS.
 */
import { randomFillSync } from 'node:crypto'
import { closeSync, openSync, writeSync } from 'node:fs'
import { open, rm } from 'node:fs/promises'
import { join } from 'node:path'

export interface RawWriteResult {
  bytes: number
  seconds: number
  /** Bytes / 2^20 per second, fdatasync included. */
  mibPerSecond: number
  /** CPU seconds (user + system) this process spent on it; measured by measurePageCacheWrite only. */
  cpuSeconds?: number
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

/**
 * What a peer's acks=1 appends meet: writes into the page cache of a fresh file, `blockBytes` at a
 * time with synchronous writes as the log's segment appends do, and no fdatasync. On a VM this
 * is the cost of taking new pages from the host as much as of copying, and it varies from run to
 * run; the peer benchmark prints it, and its CPU per MiB, next to its produce figure.
 */
export async function measurePageCacheWrite(
  dir: string,
  blockBytes = 128 * 1024,
  totalBytes = 512 * 2 ** 20,
): Promise<RawWriteResult> {
  const file = join(dir, 'page-cache-write.bin')
  const block = randomFillSync(new Uint8Array(blockBytes))
  const fd = openSync(file, 'w')
  try {
    const started = performance.now()
    const cpuStarted = process.cpuUsage()
    for (let at = 0; at < totalBytes; at += blockBytes) {
      let done = 0
      while (done < blockBytes) done += writeSync(fd, block, done, blockBytes - done, at + done)
    }
    const seconds = (performance.now() - started) / 1000
    const cpu = process.cpuUsage(cpuStarted)
    const cpuSeconds = (cpu.user + cpu.system) / 1e6
    return { bytes: totalBytes, seconds, mibPerSecond: totalBytes / 2 ** 20 / seconds, cpuSeconds }
  } finally {
    closeSync(fd)
    await rm(file, { force: true })
  }
}
