/**
 * The file outbox store (Node): the store contract on real files, a torn or corrupt journal
 * tail cut off on open (nothing half-applied), compaction into a snapshot that reopens to the
 * same state, and a whole outbox producer continuing from a reopened file.
 */
import { spawn } from 'node:child_process'
import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { FileOutboxStore } from '../../src/outbox/file-store.js'
import { OutboxProducer } from '../../src/outbox/outbox-producer.js'
import { FakeLeader } from './fake-leader.js'
import { describeOutboxStore, record } from './store-contract.js'

const dirs: string[] = []
const limits = { maxRecords: 1_000_000, maxBytes: 1_000_000_000 }

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tributary-outbox-'))
  dirs.push(dir)
  return dir
}

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))
})

// Directories are made lazily: the contract creates stores synchronously.
let next = 0
const base = await mkdtemp(join(tmpdir(), 'tributary-outbox-contract-'))
dirs.push(base)
describeOutboxStore('file', {
  create: () => new FileOutboxStore(join(base, String(next++))),
  reopen: (previous) => new FileOutboxStore((previous as FileOutboxStore).directory),
})

describe('outbox store > file > crashes', () => {
  it('cuts a torn or corrupt tail off the journal and keeps every whole step before it', async () => {
    const dir = await freshDir()
    const store = new FileOutboxStore(dir)
    await store.open(() => 5)
    await store.append([record('a'), record('b')], limits)
    await store.append([record('c')], limits)
    store.close()
    const journal = join(dir, 'outbox.journal')
    const whole = (await stat(journal)).size
    // A crash mid-write: half a line, then a line whose checksum does not match.
    await appendFile(journal, '0badf00d {"t":"append","records":[')
    const again = new FileOutboxStore(dir)
    const snapshot = await again.open(() => 1)
    expect(snapshot.meta).toMatchObject({ producerId: 5, records: 3, nextRecordId: 4 })
    expect((await again.unsealed(10, 1e9)).map((r) => new TextDecoder().decode(r.value!))).toEqual(['a', 'b', 'c'])
    expect((await stat(journal)).size).toBe(whole)
    // And the journal goes on from there.
    expect(await again.append([record('d')], limits)).toEqual([4])
    again.close()
    const third = new FileOutboxStore(dir)
    expect((await third.open(() => 1)).meta).toMatchObject({ records: 4 })
    third.close()
  })

  it('keeps every acknowledged append, and no part of any other, when the writing process is killed', async () => {
    const dir = await freshDir()
    const writer = fileURLToPath(new URL('./file-store-writer.ts', import.meta.url))
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', writer, dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    let acked = 0
    let output = ''
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the writer acknowledged only ${acked}: ${output}`)), 30_000)
        child.stderr.on('data', (d: Buffer) => {
          output = (output + d.toString()).slice(-4000)
        })
        child.stdout.on('data', (d: Buffer) => {
          for (const m of d.toString().matchAll(/ok (\d+)/g)) acked = Math.max(acked, Number(m[1]))
          if (acked >= 600) {
            clearTimeout(timer)
            resolve()
          }
        })
        child.once('exit', (code) => reject(new Error(`the writer exited (${code}): ${output}`)))
      })
    } finally {
      child.kill('SIGKILL')
      await exited
    }
    const store = new FileOutboxStore(dir)
    const { meta } = await store.open(() => 1)
    const records = await store.unsealed(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
    // Every acknowledged append is there; appends are whole (three records each); ids have no gaps.
    expect(meta.producerId).toBe(77)
    expect(records.length).toBeGreaterThanOrEqual(acked)
    expect(records.length % 3).toBe(0)
    expect(records.map((r) => r.id)).toEqual(records.map((_, i) => i + 1))
    expect(meta.records).toBe(records.length)
    expect(meta.bytes).toBe(records.length * 230)
    store.close()
  }, 60_000)

  it('compacts a long journal into one snapshot that reopens to the same state', async () => {
    const dir = await freshDir()
    const store = new FileOutboxStore(dir)
    await store.open(() => 8)
    // Every delivery is a step: 10,001 of them trigger a compaction.
    for (let i = 0; i < 5_001; i++) {
      const [id] = await store.append([record(`r${i}`)], limits)
      if (i < 5_000)
        await store.commit({ deleteRecordIds: [id!], released: { records: 1, bytes: 24 + `r${i}`.length } })
    }
    const before = await store.meta()
    expect(before).toMatchObject({ records: 1, nextRecordId: 5_002 })
    store.close()
    const text = await readFile(join(dir, 'outbox.journal'), 'utf8')
    expect(text.split('\n').length).toBeLessThan(100)
    const again = new FileOutboxStore(dir)
    expect((await again.open(() => 1)).meta).toEqual(before)
    expect((await again.unsealed(10, 1e9)).map((r) => [r.id, new TextDecoder().decode(r.value!)])).toEqual([
      [5_001, 'r5000'],
    ])
    again.close()
  }, 60_000)

  it('lets a fresh producer continue an outbox kept in a file', async () => {
    const dir = await freshDir()
    const leader = new FakeLeader()
    leader.createTopic('t', 1)
    leader.reachable = false
    const retry = { initialRetryTime: 5, maxRetryTime: 20 }
    const a = await OutboxProducer.open(leader, { store: new FileOutboxStore(dir), retry })
    await a.enqueue({ topic: 't', messages: [{ value: 'a' }, { value: 'b' }] })
    await a.close()
    const b = await OutboxProducer.open(leader, { store: new FileOutboxStore(dir), retry })
    expect(await b.pending()).toBe(2)
    leader.reachable = true
    await b.flush({ timeout: 10_000 })
    await b.close()
    expect(leader.log('t', 0).map((r) => r.value)).toEqual(['a', 'b'])
    const c = new FileOutboxStore(dir)
    expect((await c.open(() => 1)).meta.records).toBe(0)
    c.close()
  })
})
