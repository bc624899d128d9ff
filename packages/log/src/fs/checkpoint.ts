import { open, readFile, rename, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import { CorruptRecordError, crc32c } from '@tributary/wire'

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })
const MAGIC = 'tributary-checkpoint-v1'

/**
 * Small state files (high watermark, log start, leader epochs, clean-shutdown marker) written
 * atomically: a temp file, fsync'd when `durable`, renamed over the old one, then the
 * directory fsync'd. A first line carries a CRC32C of the body, so a half-written or
 * bit-flipped checkpoint is detected instead of trusted.
 */
export async function writeCheckpoint(path: string, body: string, durable: boolean): Promise<void> {
  const payload = encoder.encode(body)
  const text = encoder.encode(`${MAGIC} ${crc32c(payload).toString(16)}\n`)
  const tmp = `${path}.tmp`
  const handle = await open(tmp, 'w')
  try {
    await handle.writev([text, payload])
    if (durable) await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(tmp, path)
  if (durable) await syncDir(dirname(path))
}

/** The body of a checkpoint, undefined if there is none; a damaged one is a `CorruptRecordError`. */
export async function readCheckpoint(path: string): Promise<string | undefined> {
  let bytes: Uint8Array
  try {
    bytes = await readFile(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  const newline = bytes.indexOf(10)
  const head = newline < 0 ? '' : decoder.decode(bytes.subarray(0, newline))
  const [magic, crc] = head.split(' ')
  const body = bytes.subarray(newline + 1)
  if (magic !== MAGIC || crc === undefined || Number.parseInt(crc, 16) !== crc32c(body)) {
    throw new CorruptRecordError(`checkpoint ${path} is damaged`)
  }
  return decoder.decode(body)
}

export async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
}

export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
