/**
 * Idempotence across real crashes: a writer process appends for three idempotent producers and
 * is SIGKILLed at random moments; each time it restarts from the first batch it has no
 * acknowledgement for — the lost-ack retry — which must append once: as a duplicate when it
 * had landed, as new when it had not. At the end every producer's batches are in the log
 * exactly once, in sequence.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openFsLog } from '@tributary/log/fs'
import { decodeRecordBatch, iterateBatches } from '@tributary/wire'
import { afterAll, describe, expect, it } from 'vitest'
import {
  idempotentBatch,
  PRODUCER_IDS,
  recordsIn,
  sequenceOf,
  WRITER_LOG_CONFIG,
} from './fixtures/idempotent-batches.ts'

const writer = fileURLToPath(new URL('./fixtures/idempotent-writer.ts', import.meta.url))
const KILLS = 8
const children = new Set<ChildProcess>()

afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
})

interface Ack {
  pid: number
  index: number
  first: number
  last: number
  dup: boolean
}

/** Runs the writer from `next` (per producer), collects acks, SIGKILLs it after `killAfter` acks and a short delay. */
async function runAndKill(dir: string, next: number[], killAfter: number, delayMs: number): Promise<Ack[]> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', writer, dir, ...next.map(String)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  const acks: Ack[] = []
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`writer made no progress in 20 s: ${stderr}`)), 20_000)
      let buffered = ''
      let killing = false
      child.stdout.on('data', (d: Buffer) => {
        buffered += d.toString()
        for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
          const [kind, pid, index, first, last, dup] = buffered.slice(0, nl).split(' ')
          buffered = buffered.slice(nl + 1)
          if (kind !== 'ack') continue
          const ack = { pid: Number(pid), index: Number(index), first: Number(first), last: Number(last) }
          acks.push({ ...ack, dup: dup === 'dup' })
          if (acks.length >= killAfter && !killing) {
            killing = true
            clearTimeout(deadline)
            setTimeout(() => {
              child.kill('SIGKILL')
              resolve()
            }, delayMs)
          }
        }
      })
      child.once('exit', (code) => {
        clearTimeout(deadline)
        if (!killing) reject(new Error(`writer exited early (${code}): ${stderr}`))
      })
    })
  } finally {
    child.kill('SIGKILL')
    await exited
    children.delete(child)
  }
  return acks
}

describe('log > fs > idempotence across crashes', () => {
  it(`appends every producer batch exactly once across ${KILLS} SIGKILLs and retries`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tributary-idem-crash-'))
    try {
      const next = PRODUCER_IDS.map(() => 0)
      const offsets = new Map<string, { first: number; last: number }>()
      // Per producer: whether its first unacknowledged batch is already in the log.
      const landed = PRODUCER_IDS.map(() => false)
      for (let round = 0; round < KILLS; round++) {
        const acks = await runAndKill(dir, next, 20 + ((round * 37) % 60), (round * 3) % 5)
        const resumed = new Set<number>()
        for (const ack of acks) {
          const p = PRODUCER_IDS.indexOf(ack.pid as (typeof PRODUCER_IDS)[number])
          // The batch a producer resumes with is a duplicate exactly when it had landed unacknowledged.
          if (!resumed.has(p)) {
            resumed.add(p)
            expect(ack.index).toBe(next[p])
            expect(ack.dup).toBe(landed[p])
          } else expect(ack.dup).toBe(false)
          offsets.set(`${ack.pid}/${ack.index}`, { first: ack.first, last: ack.last })
          next[p] = ack.index + 1
        }
        // The writer never closed: this open rebuilds producer state from its snapshot and the log.
        const log = await openFsLog({ dir, name: 'idem-0', config: WRITER_LOG_CONFIG })
        try {
          for (const [p, pid] of PRODUCER_IDS.entries()) {
            const lastAcked = next[p]! - 1
            if (lastAcked < 0) continue
            const state = log.describeProducers().find((d) => d.producerId === pid)
            // The log may hold one batch more than was acknowledged (killed between append and ack).
            const lastSeq = (index: number) => sequenceOf(pid, index) + recordsIn(pid, index) - 1
            expect([lastSeq(lastAcked), lastSeq(lastAcked + 1)]).toContain(state?.lastSequence)
            landed[p] = state?.lastSequence === lastSeq(lastAcked + 1)
            // The last acknowledged batch sent again is answered with its offsets, appending nothing.
            const end = log.logEndOffset
            const retry = await log.appendAsLeader(idempotentBatch(pid, lastAcked), 0)
            expect(retry).toMatchObject({ ...offsetsOf(offsets, pid, lastAcked), duplicate: true })
            expect(log.logEndOffset).toBe(end)
          }
        } finally {
          await log.close()
        }
      }
      expect(offsets.size).toBeGreaterThan(KILLS * 20)

      // Every producer's batches are in the log once, in sequence, with the bytes it sent.
      const log = await openFsLog({ dir, name: 'idem-0', config: WRITER_LOG_CONFIG })
      try {
        const seen = new Map<number, number>(PRODUCER_IDS.map((pid) => [pid, 0]))
        let offset = 0
        for (let guard = 0; offset < log.logEndOffset && guard < 100_000; guard++) {
          const { records, nextOffset } = await log.read(offset, { maxOffset: log.logEndOffset, maxBytes: 1 << 20 })
          for (const { pos, header } of iterateBatches(records)) {
            const index = seen.get(header.producerId)!
            expect(header.baseSequence).toBe(sequenceOf(header.producerId, index))
            const sent = await decodeRecordBatch(idempotentBatch(header.producerId, index))
            const stored = await decodeRecordBatch(records, pos)
            expect(stored.records.map((r) => r.value)).toEqual(sent.records.map((r) => r.value))
            seen.set(header.producerId, index + 1)
          }
          offset = nextOffset
        }
        expect(offset).toBe(log.logEndOffset)
        for (const [p, pid] of PRODUCER_IDS.entries()) expect(seen.get(pid)).toBeGreaterThanOrEqual(next[p]!)
      } finally {
        await log.close()
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 180_000)
})

function offsetsOf(offsets: Map<string, { first: number; last: number }>, pid: number, index: number) {
  const found = offsets.get(`${pid}/${index}`)!
  return { firstOffset: found.first, lastOffset: found.last }
}
