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

export interface PageCacheWrites {
  /** Into pages the kernel takes from its free memory: new ones, unless something just freed some. */
  fresh: RawWriteResult
  /** The same again right after the first file is deleted, into the pages that freed. */
  recycled: RawWriteResult
}

/**
 * What a peer's acks=1 appends meet: writes into the page cache of a new file, `blockBytes` at a
 * time with synchronous writes as the log's segment appends do, and no fdatasync — once into
 * fresh pages, then again into pages just freed. The two differ on a VM that hands free memory
 * back to its host (virtio-balloon free page reporting): there a fresh page costs a fault on the
 * host, and the first write's CPU per MiB is many times the second's (2.0 against 0.14 ms on
 * the 2-core VM this was measured on). A peer whose log grows into free memory pays the first;
 * one whose page cache is full and recycles, the second. The peer benchmark prints both.
 */
export async function measurePageCacheWrite(
  dir: string,
  blockBytes = 128 * 1024,
  totalBytes = 512 * 2 ** 20,
): Promise<PageCacheWrites> {
  const block = randomFillSync(new Uint8Array(blockBytes))
  const fresh = writeTimed(join(dir, 'page-cache-write.bin'), block, totalBytes)
  await rm(join(dir, 'page-cache-write.bin'), { force: true })
  try {
    return { fresh, recycled: writeTimed(join(dir, 'page-cache-rewrite.bin'), block, totalBytes) }
  } finally {
    await rm(join(dir, 'page-cache-rewrite.bin'), { force: true })
  }
}

/** Writes `totalBytes` of `block` into a new file at `file` (left in place), timed with its CPU. */
function writeTimed(file: string, block: Uint8Array, totalBytes: number): RawWriteResult {
  const fd = openSync(file, 'w')
  try {
    const started = performance.now()
    const cpuStarted = process.cpuUsage()
    for (let at = 0; at < totalBytes; at += block.byteLength) {
      let done = 0
      while (done < block.byteLength) done += writeSync(fd, block, done, block.byteLength - done, at + done)
    }
    const seconds = (performance.now() - started) / 1000
    const cpu = process.cpuUsage(cpuStarted)
    const cpuSeconds = (cpu.user + cpu.system) / 1e6
    return { bytes: totalBytes, seconds, mibPerSecond: totalBytes / 2 ** 20 / seconds, cpuSeconds }
  } finally {
    closeSync(fd)
  }
}
