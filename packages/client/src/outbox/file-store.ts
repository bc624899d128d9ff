/**
 * The outbox in a file, for Node (import from '@tributary/client/outbox-file', so browser
 * bundles never see node:fs). The state lives in memory as in MemoryOutboxStore; every step is
 * first written to a journal, `<dir>/outbox.journal`, as one line — `<crc32c hex> <json>` — and
 * fsynced before the step takes effect. Opening replays the journal; a torn or corrupt tail (a
 * crash mid-write) is cut off, so a step is in the outbox whole or not at all. When the journal
 * has grown well beyond what it describes, it is rewritten as a snapshot (temp file, fsync,
 * rename, fsync of the directory).
 *
 * One process per directory at a time: the caller's job (as for a peer's data dir).
 */
import { mkdir, open, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { crc32c, KafkaStorageError, type RecordHeader, TributaryError } from '@tributary/wire'
import { InvalidArgumentError } from '../errors.js'
import { checkRoom, MemoryOutboxStore } from './memory-store.js'
import type {
  OutboxChange,
  OutboxLimits,
  OutboxMeta,
  OutboxSnapshot,
  OutboxStore,
  PartitionSequence,
  SealedBatch,
  StoredRecord,
  TopicPartitions,
} from './store.js'

const JOURNAL = 'outbox.journal'
/** Rewrite the journal once it holds this many steps more than a snapshot would. */
const COMPACT_AFTER_STEPS = 10_000
const NO_LIMITS: OutboxLimits = { maxRecords: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER }

type Step =
  | { t: 'open'; producerId: number }
  | { t: 'append'; records: JsonRecord[] }
  | { t: 'commit'; change: JsonChange }
  | {
      t: 'snapshot'
      meta: OutboxMeta
      records: Array<JsonRecord & { id: number }>
      batches: JsonBatch[]
      sequences: PartitionSequence[]
      topics: TopicPartitions[]
    }

interface JsonRecord extends Omit<StoredRecord, 'key' | 'value' | 'headers' | 'id'> {
  key: string | null
  value: string | null
  headers: Array<{ key: string; value: string | null }>
}

interface JsonBatch extends Omit<SealedBatch, 'records'> {
  records: Array<JsonRecord & { id: number }>
}

type JsonChange = Omit<OutboxChange, 'putBatches'> & { putBatches?: JsonBatch[] }

export class FileOutboxStore implements OutboxStore {
  readonly name: string
  private readonly file: string
  private state = new MemoryOutboxStore()
  private journal: Awaited<ReturnType<typeof open>> | undefined
  private steps = 0
  /** Steps run one after another: the journal's order is the state's order. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly dir: string) {
    if (typeof dir !== 'string' || dir.length === 0)
      throw new InvalidArgumentError('the outbox directory must be a path')
    this.name = `file:${dir}`
    this.file = join(dir, JOURNAL)
  }

  async open(newProducerId: () => number, signal?: AbortSignal): Promise<OutboxSnapshot> {
    signal?.throwIfAborted()
    try {
      await mkdir(this.dir, { recursive: true })
      this.state = new MemoryOutboxStore(this.name)
      const { steps, validBytes } = await this.readJournal()
      const handle = await open(this.file, 'a+')
      const { size } = await handle.stat()
      // A torn or corrupt tail is cut off: what follows the last whole step never happened.
      if (size > validBytes) await handle.truncate(validBytes)
      this.journal = handle
      this.steps = 0
      let opened = false
      for (const step of steps) {
        await this.apply(step)
        opened ||= step.t === 'open' || step.t === 'snapshot'
        this.steps++
      }
      if (!opened) {
        const step: Step = { t: 'open', producerId: newProducerId() }
        await this.write([step])
        await this.apply(step)
      }
      return await this.state.open(() => 0)
    } catch (err) {
      throw fileError(err, `opening outbox ${this.file}`)
    }
  }

  append(
    records: ReadonlyArray<Omit<StoredRecord, 'id'>>,
    limits: OutboxLimits,
    onIds?: (ids: number[]) => void,
  ): Promise<number[]> {
    return this.serially(async () => {
      // Checked (and the ids told) against the state first; written only if it fits.
      const probe = await this.state.meta()
      const ids = records.map((_, i) => probe.nextRecordId + i)
      const bytes = records.reduce((n, r) => n + r.size, 0)
      checkRoom(probe, records.length, bytes, limits)
      onIds?.(ids)
      const step: Step = { t: 'append', records: records.map(toJsonRecord) }
      await this.write([step])
      await this.state.append(records, NO_LIMITS)
      return ids
    })
  }

  /** The directory holding the journal. */
  get directory(): string {
    return this.dir
  }

  unsealed(maxRecords: number, maxBytes: number): Promise<StoredRecord[]> {
    return this.state.unsealed(maxRecords, maxBytes)
  }

  batches(limit: number): Promise<SealedBatch[]> {
    return this.state.batches(limit)
  }

  commit(change: OutboxChange): Promise<void> {
    return this.serially(async () => {
      await this.write([{ t: 'commit', change: toJsonChange(change) }])
      await this.state.commit(change)
      if (this.steps > COMPACT_AFTER_STEPS) await this.compact()
    })
  }

  meta(): Promise<OutboxMeta> {
    return this.state.meta()
  }

  close(): void {
    const journal = this.journal
    this.journal = undefined
    void this.queue.finally(() => journal?.close().catch(() => {}))
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step, step)
    this.queue = run.catch(() => {})
    return run.catch((err: unknown) => {
      throw fileError(err, `writing outbox ${this.file}`)
    })
  }

  private async apply(step: Step): Promise<void> {
    if (step.t === 'open') await this.state.open(() => step.producerId)
    else if (step.t === 'append') await this.state.append(step.records.map(fromJsonRecord), NO_LIMITS)
    else if (step.t === 'commit') await this.state.commit(fromJsonChange(step.change))
    else {
      this.state.load({
        meta: step.meta,
        records: step.records.map((r) => ({ ...fromJsonRecord(r), id: r.id })),
        batches: step.batches.map(fromJsonBatch),
        sequences: step.sequences,
        topics: step.topics,
      })
    }
  }

  private async write(steps: Step[]): Promise<void> {
    const journal = this.journal
    if (journal === undefined) throw new KafkaStorageError(`outbox ${this.file} is not open`)
    await journal.write(steps.map(line).join(''))
    await journal.datasync()
    this.steps += steps.length
  }

  private async readJournal(): Promise<{ steps: Step[]; validBytes: number }> {
    let text: Buffer
    try {
      const handle = await open(this.file, 'r')
      try {
        text = await handle.readFile()
      } finally {
        await handle.close()
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { steps: [], validBytes: 0 }
      throw err
    }
    const steps: Step[] = []
    let pos = 0
    // Bounded by the file: each pass consumes one line.
    while (pos < text.length) {
      const end = text.indexOf(0x0a, pos)
      if (end === -1) break
      const step = parseLine(text.subarray(pos, end))
      if (step === undefined) break
      steps.push(step)
      pos = end + 1
    }
    return { steps, validBytes: pos }
  }

  /** Rewrites the journal as one snapshot step of the current state. */
  private async compact(): Promise<void> {
    const dump = this.state.dump()
    const snapshot: Step = {
      t: 'snapshot',
      meta: dump.meta,
      records: dump.records.map((r) => ({ ...toJsonRecord(r), id: r.id })),
      batches: dump.batches.map(toJsonBatch),
      sequences: dump.sequences,
      topics: dump.topics,
    }
    const tmp = `${this.file}.tmp`
    const handle = await open(tmp, 'w')
    try {
      await handle.write(line(snapshot))
      await handle.datasync()
    } finally {
      await handle.close()
    }
    await this.journal?.close()
    this.journal = undefined
    await rename(tmp, this.file)
    const dir = await open(this.dir, 'r')
    try {
      await dir.sync()
    } finally {
      await dir.close()
    }
    this.journal = await open(this.file, 'a')
    this.steps = 1
  }
}

function line(step: Step): string {
  const json = JSON.stringify(step)
  return `${crc32c(new TextEncoder().encode(json)).toString(16).padStart(8, '0')} ${json}\n`
}

function parseLine(bytes: Uint8Array): Step | undefined {
  if (bytes.length < 10 || bytes[8] !== 0x20) return undefined
  const crc = Number.parseInt(new TextDecoder().decode(bytes.subarray(0, 8)), 16)
  const body = bytes.subarray(9)
  if (!Number.isInteger(crc) || crc32c(body) !== crc) return undefined
  try {
    return JSON.parse(new TextDecoder().decode(body)) as Step
  } catch {
    return undefined
  }
}

const b64 = (bytes: Uint8Array | null): string | null => (bytes === null ? null : Buffer.from(bytes).toString('base64'))
const unb64 = (text: string | null): Uint8Array | null =>
  text === null ? null : new Uint8Array(Buffer.from(text, 'base64'))

function toJsonRecord(r: Omit<StoredRecord, 'id'>): JsonRecord {
  return {
    topic: r.topic,
    partition: r.partition,
    key: b64(r.key),
    value: b64(r.value),
    headers: r.headers.map((h) => ({ key: h.key, value: b64(h.value) })),
    timestamp: r.timestamp,
    size: r.size,
  }
}

function fromJsonRecord(r: JsonRecord): Omit<StoredRecord, 'id'> {
  return {
    topic: r.topic,
    partition: r.partition,
    key: unb64(r.key),
    value: unb64(r.value),
    headers: r.headers.map((h): RecordHeader => ({ key: h.key, value: unb64(h.value) })),
    timestamp: r.timestamp,
    size: r.size,
  }
}

function toJsonBatch(b: SealedBatch): JsonBatch {
  return { ...b, records: b.records.map((r) => ({ ...toJsonRecord(r), id: r.id })) }
}

function fromJsonBatch(b: JsonBatch): SealedBatch {
  return { ...b, records: b.records.map((r) => ({ ...fromJsonRecord(r), id: r.id })) }
}

function toJsonChange(change: OutboxChange): JsonChange {
  const { putBatches, ...rest } = change
  return putBatches === undefined ? rest : { ...rest, putBatches: putBatches.map(toJsonBatch) }
}

function fromJsonChange(change: JsonChange): OutboxChange {
  const { putBatches, ...rest } = change
  return putBatches === undefined ? rest : { ...rest, putBatches: putBatches.map(fromJsonBatch) }
}

function fileError(err: unknown, what: string): TributaryError {
  if (err instanceof TributaryError) return err
  const code = (err as NodeJS.ErrnoException | null)?.code
  return new KafkaStorageError(`${what}: ${code ?? ''} ${err instanceof Error ? err.message : String(err)}`.trim(), {
    cause: err,
  })
}
