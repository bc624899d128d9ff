import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openFsLog } from '@tributary/log/fs'
import { crc32c, decodeRecordBatch, iterateBatches } from '@tributary/wire'
import { afterAll, describe, expect, it } from 'vitest'

const writer = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url))
const KILLS = 24
const children = new Set<ChildProcess>()

afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
})

interface Ack {
  first: number
  last: number
  crc: number
}

/** Starts the writer, lets it acknowledge a random number of batches, then SIGKILLs it. */
async function runAndKill(
  dir: string,
  seed: number,
  acks: Ack[],
  killAfterAcks: number,
  killDelayMs: number,
): Promise<void> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', writer, dir, String(seed)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`writer made no progress in 20 s: ${stderr}`)), 20_000)
      let seen = 0
      let buffered = ''
      child.stdout.on('data', (d: Buffer) => {
        buffered += d.toString()
        let nl = buffered.indexOf('\n')
        while (nl >= 0) {
          const [kind, a, b, c] = buffered.slice(0, nl).split(' ')
          buffered = buffered.slice(nl + 1)
          nl = buffered.indexOf('\n')
          if (kind !== 'ack') continue
          acks.push({ first: Number(a), last: Number(b), crc: Number(c) })
          if (++seen === killAfterAcks) {
            // Mid-stream, a few milliseconds on: the next append may be half-written.
            clearTimeout(deadline)
            setTimeout(() => {
              child.kill('SIGKILL')
              resolve()
            }, killDelayMs)
          }
        }
      })
      child.once('exit', (code) => {
        clearTimeout(deadline)
        if (seen < killAfterAcks) reject(new Error(`writer exited early (${code}): ${stderr}`))
      })
    })
  } finally {
    child.kill('SIGKILL')
    await exited
    children.delete(child)
  }
}

describe('log > fs > crash safety', () => {
  it(`keeps every acknowledged batch across ${KILLS} SIGKILLs, contiguous and intact`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tributary-crash-'))
    try {
      const acks: Ack[] = []
      for (let round = 0; round < KILLS; round++) {
        const seed = 1000 + round
        await runAndKill(dir, seed, acks, 1 + ((seed * 7919) % 37), (seed * 31) % 7)
        // The writer never closes cleanly, so this open always runs recovery on the active segment.
        const log = await openFsLog({
          dir,
          name: 'crash-0',
          config: { segmentBytes: 64 * 1024, indexIntervalBytes: 1024 },
        })
        try {
          const lastAck = acks.at(-1)!
          expect(log.logEndOffset).toBeGreaterThan(lastAck.last)
          // Read everything: every batch verified by the log, offsets contiguous from 0.
          const batches = new Map<number, { last: number; crc: number }>()
          let offset = 0
          for (let guard = 0; offset < log.logEndOffset && guard < 100_000; guard++) {
            const { records, nextOffset } = await log.read(offset, { maxOffset: log.logEndOffset, maxBytes: 1 << 20 })
            for (const { pos, header } of iterateBatches(records)) {
              expect(header.baseOffset).toBe(offset)
              const decoded = await decodeRecordBatch(records, pos)
              let crc = 0
              for (const r of decoded.records) crc = crc32c(r.value!, crc)
              batches.set(header.baseOffset, { last: header.baseOffset + header.lastOffsetDelta, crc })
              offset = header.baseOffset + header.lastOffsetDelta + 1
            }
            expect(nextOffset).toBe(offset)
          }
          expect(offset).toBe(log.logEndOffset)
          for (const ack of acks) expect(batches.get(ack.first)).toEqual({ last: ack.last, crc: ack.crc })
        } finally {
          await log.close()
          // Half the rounds drop the clean-shutdown marker, so the writer's own open recovers too.
          if (round % 2 === 1) await rm(join(dir, '.clean-shutdown'), { force: true })
        }
      }
      expect(acks.length).toBeGreaterThan(KILLS)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 240_000)
})
