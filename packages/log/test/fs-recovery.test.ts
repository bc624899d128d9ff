import { cp, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Log } from '@tributary/log'
import { openFsLog } from '@tributary/log/fs'
import { batchOf, readAll, recordingLogger } from '@tributary/test-utils'
import { CorruptRecordError, iterateBatches } from '@tributary/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const config = { segmentBytes: 2048, indexIntervalBytes: 256 }
let root: string
let pristine: string
let trial = 0

async function segmentFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.log')).sort()
}

/** A fresh copy of the pristine log (8 segments of 5-record batches, closed cleanly). */
async function copyOfPristine(): Promise<string> {
  const dir = join(root, `trial-${trial++}`)
  await cp(pristine, dir, { recursive: true })
  return dir
}

async function flipByte(file: string, position: number, mask: number): Promise<void> {
  const bytes = await readFile(file)
  bytes[position]! ^= mask
  await writeFile(file, bytes)
}

/** Positions of the batches in a segment file. */
async function batchPositions(file: string): Promise<Array<{ pos: number; size: number; base: number }>> {
  const bytes = new Uint8Array(await readFile(file))
  return [...iterateBatches(bytes)].map(({ pos, size, header }) => ({ pos, size, base: header.baseOffset }))
}

function open(dir: string, logger = recordingLogger()): Promise<Log> {
  return openFsLog({ dir, name: 'orders-0', config, logger })
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-recovery-'))
  pristine = join(root, 'pristine')
  const log = await open(pristine)
  for (let i = 0; i < 60; i++)
    await log.appendAsLeader(
      batchOf(Array.from({ length: 5 }, (_, r) => ({ key: `k${r}`, value: `batch${i}-record${r}` }))),
      i < 30 ? 1 : 2,
    )
  log.setHighWatermark(log.logEndOffset)
  await log.close()
  expect((await segmentFiles(pristine)).length).toBeGreaterThan(4)
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('log > fs > corruption', () => {
  it('a flipped byte anywhere in a closed segment is a CorruptRecordError on read, never wrong data', async () => {
    let seed = 42
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    for (let i = 0; i < 40; i++) {
      const dir = await copyOfPristine()
      const [first] = await segmentFiles(dir)
      const file = join(dir, first!)
      const position = random((await stat(file)).size)
      await flipByte(file, position, 1 + random(255))
      const log = await open(dir)
      try {
        const err = await readAll(log).catch((e: unknown) => e)
        expect(err, `flip at byte ${position}`).toBeInstanceOf(CorruptRecordError)
        expect((err as Error).message).toMatch(/orders-0/)
      } finally {
        await log.close()
        await rm(dir, { recursive: true })
      }
    }
  })

  it.each([
    ['base offset', 7],
    ['batch length', 11],
    ['partition leader epoch', 15],
    ['magic', 16],
    ['crc', 18],
    ['attributes', 22],
    ['record count', 60],
  ])('catches a flip in the %s of a stored batch', async (_field, at) => {
    const dir = await copyOfPristine()
    const files = await segmentFiles(dir)
    const file = join(dir, files[1]!)
    const [, second] = await batchPositions(file)
    await flipByte(file, second!.pos + at, 0x04)
    const log = await open(dir)
    try {
      await expect(log.read(second!.base, { maxOffset: log.logEndOffset })).rejects.toBeInstanceOf(CorruptRecordError)
      // Other segments still serve their data.
      expect((await log.read(0, { maxOffset: log.logEndOffset })).batchCount).toBeGreaterThan(0)
    } finally {
      await log.close()
    }
  })

  it('recovery cuts the active segment at a corrupt batch in its tail after a crash, and the log stays appendable', async () => {
    // Recovery re-checks the active segment from its last index entry, which the final batch is always at or after.
    const dir = await copyOfPristine()
    const files = await segmentFiles(dir)
    const active = join(dir, files.at(-1)!)
    const batches = await batchPositions(active)
    const victim = batches.at(-1)!
    await flipByte(active, victim.pos + 70, 0x10)
    await rm(join(dir, '.clean-shutdown'))
    const logger = recordingLogger()
    const log = await open(dir, logger)
    try {
      expect(log.logEndOffset).toBe(victim.base)
      const warning = logger.lines.find((l) => l.level === 'warn' && l.msg?.includes('recovery truncated'))
      expect(warning?.obj).toMatchObject({ partition: 'orders-0', reason: expect.stringMatching(/CRC/) })
      expect((await log.appendAsLeader(batchOf([{ key: 'k', value: 'after' }]), 2)).firstOffset).toBe(victim.base)
      const records = await readAll(log)
      expect(records.map((r) => r.offset)).toEqual(Array.from({ length: victim.base + 1 }, (_, i) => i))
      expect(records.at(-1)!.value).toBe('after')
    } finally {
      await log.close()
    }
  })

  it('a corrupt batch in the active segment after a clean shutdown is still never served', async () => {
    const dir = await copyOfPristine()
    const active = join(dir, (await segmentFiles(dir)).at(-1)!)
    const victim = (await batchPositions(active)).at(-1)!
    await flipByte(active, victim.pos + 65, 0x01)
    const log = await open(dir)
    try {
      await expect(log.read(victim.base, { maxOffset: log.logEndOffset })).rejects.toBeInstanceOf(CorruptRecordError)
    } finally {
      await log.close()
    }
  })
})

describe('log > fs > recovery', () => {
  it('truncates a torn final batch and logs it', async () => {
    const dir = await copyOfPristine()
    const active = join(dir, (await segmentFiles(dir)).at(-1)!)
    const last = (await batchPositions(active)).at(-1)!
    await truncate(active, last.pos + Math.floor(last.size / 2))
    await rm(join(dir, '.clean-shutdown'))
    const logger = recordingLogger()
    const log = await open(dir, logger)
    try {
      expect(log.logEndOffset).toBe(last.base)
      expect(logger.lines.some((l) => l.msg?.includes('recovery truncated'))).toBe(true)
      expect((await readAll(log)).length).toBe(last.base)
    } finally {
      await log.close()
    }
  })

  it('drops garbage after the last batch, even when a stale clean marker claims otherwise', async () => {
    const dir = await copyOfPristine()
    const active = join(dir, (await segmentFiles(dir)).at(-1)!)
    const before = await readFile(active)
    await writeFile(active, Buffer.concat([before, Buffer.alloc(100, 0xab)]))
    const log = await open(dir)
    try {
      expect(log.logEndOffset).toBe(300)
      expect((await stat(active)).size).toBe(before.length)
      expect((await readAll(log)).length).toBe(300)
    } finally {
      await log.close()
    }
  })

  it('skips the scan after a clean shutdown', async () => {
    const dir = await copyOfPristine()
    const logger = recordingLogger()
    const log = await open(dir, logger)
    await log.close()
    expect(logger.lines.find((l) => l.msg === 'log opened')?.obj).toMatchObject({ clean: true, logEndOffset: 300 })
  })

  it('rebuilds the index of a closed segment that fails its sanity check', async () => {
    const dir = await copyOfPristine()
    const files = await segmentFiles(dir)
    const index = join(dir, files[0]!.replace('.log', '.index'))
    const bytes = await readFile(index)
    expect(bytes.length).toBeGreaterThan(8)
    await writeFile(index, Buffer.concat([bytes, Buffer.from([0xff, 0xff, 0xff])]))
    const logger = recordingLogger()
    const log = await open(dir, logger)
    try {
      expect(logger.lines.some((l) => l.msg?.includes('sanity check'))).toBe(true)
      expect((await readAll(log)).map((r) => r.offset)).toEqual(Array.from({ length: 300 }, (_, i) => i))
    } finally {
      await log.close()
    }
  })

  it('finishes a compaction swap a crash interrupted and drops unfinished cleaner output', async () => {
    const dir = await copyOfPristine()
    const [first] = await segmentFiles(dir)
    const stem = first!.replace('.log', '')
    for (const suffix of ['.log', '.index', '.timeindex'])
      await cp(join(dir, stem + suffix), join(dir, `${stem}${suffix}.swap`))
    await cp(join(dir, stem + '.log'), join(dir, 'cleaner-junk.log'))
    await writeFile(join(dir, 'meta.checkpoint.tmp'), 'half written')
    const log = await open(dir)
    try {
      const left = await readdir(dir)
      expect(left.filter((f) => f.endsWith('.swap') || f.endsWith('.tmp'))).toEqual([])
      expect((await readAll(log)).length).toBe(300)
    } finally {
      await log.close()
      await rm(join(dir, 'cleaner-junk.log'))
    }
  })
})

describe('log > fs > resources', () => {
  it('keeps at most maxOpenSegments closed segments open while reading them all', async () => {
    const dir = await copyOfPristine()
    const fds = async (): Promise<number> => (await readdir('/proc/self/fd')).length
    const baseline = await fds()
    const log = await openFsLog({ dir, name: 'orders-0', config, maxOpenSegments: 2 })
    try {
      expect(log.segmentCount).toBeGreaterThan(5)
      let peak = 0
      let offset = 0
      while (offset < log.logEndOffset) {
        const result = await log.read(offset, { maxOffset: log.logEndOffset, maxBytes: 64 })
        offset = result.nextOffset
        peak = Math.max(peak, await fds())
      }
      // Active segment + 2 closed, three files each.
      expect(peak - baseline).toBeLessThanOrEqual(9)
    } finally {
      await log.close()
    }
  })
})
