/**
 * Replica fetches to one leader travel together. Raft here runs per partition, and each follower
 * long-polls its leader per partition: a peer following 32 partitions led by two other peers kept
 * 32 fetches open, and every `fetchMaxWaitMs` each was answered and sent again — an idle mesh of
 * 48 partitions cost its three peers ~0.3 cores in RPCs that carried nothing. Kafka's followers
 * send one fetch per leader broker for all the partitions they follow; this does the same below
 * the per-partition Raft, which keeps its own fetch loop and sees no difference:
 *
 * - Client side, the fetches that the replicas of one peer address to the same leader within one
 *   turn of the event loop go out as one bundle (a fetch alone goes out as it is).
 * - Server side, every entry of a bundle is answered by its partition as a fetch of its own, and
 *   the bundle is answered as soon as one entry has an answer that did not wait (records, an
 *   error, a new epoch): the others then stop waiting and answer with what they have, so data for
 *   one partition is never held up by another's long poll. Entries answered early simply fetch
 *   again, in the next bundle.
 *
 * Bundle grammar (big-endian): request = count:u16 (length:u32 ReplicaFetchRequest){count};
 * response = count:u16 (kind:u8 length:u32 bytes){count}, kind 0 = ReplicaFetchResponse,
 * 1 = RpcError. Counts and lengths are bounded and checked before anything is decoded.
 */
import { InvalidRequestError } from '@tributary/wire'
import { encodeReplicaFetchResponse, type RaftRequestOptions, type ReplicaFetchResponse } from './raft/index.js'
import { abortReason } from './rpc/abort.js'
import { decodeErrorPayload, encodeErrorPayload, isWireError, unknownServerError } from './rpc/error-payload.js'
import { InvalidFrameError } from './rpc/errors.js'

/** Entries per bundle; more fetches to one leader in one turn go out as several bundles. */
export const MAX_BUNDLE_ENTRIES = 32
const ENTRY_OK = 0
const ENTRY_ERROR = 1

/** Runs `fn` after the current turn's I/O callbacks and microtasks: where the re-fetches gather. */
const nextTurn: (fn: () => void) => void =
  typeof setImmediate === 'function' ? (fn) => setImmediate(fn) : (fn) => setTimeout(fn, 0)

export function encodeBundleRequest(entries: readonly Uint8Array[]): Uint8Array {
  return encodeEntries(entries.map((bytes) => ({ kind: undefined, bytes })))
}

export function decodeBundleRequest(bytes: Uint8Array): Uint8Array[] {
  return decodeEntries(bytes, false, (m) => new InvalidRequestError(m)).map((e) => e.bytes)
}

export interface BundleAnswer {
  ok: boolean
  bytes: Uint8Array
}

export function encodeBundleResponse(answers: readonly BundleAnswer[]): Uint8Array {
  return encodeEntries(answers.map((a) => ({ kind: a.ok ? ENTRY_OK : ENTRY_ERROR, bytes: a.bytes })))
}

export function decodeBundleResponse(bytes: Uint8Array): BundleAnswer[] {
  return decodeEntries(bytes, true, (m) => new InvalidFrameError(m)).map((e) => ({
    ok: e.kind === ENTRY_OK,
    bytes: e.bytes,
  }))
}

function encodeEntries(entries: ReadonlyArray<{ kind: number | undefined; bytes: Uint8Array }>): Uint8Array {
  if (entries.length === 0 || entries.length > MAX_BUNDLE_ENTRIES) {
    throw new RangeError(`a fetch bundle holds 1 to ${MAX_BUNDLE_ENTRIES} entries, not ${entries.length}`)
  }
  let size = 2
  for (const e of entries) size += (e.kind === undefined ? 4 : 5) + e.bytes.byteLength
  const out = new Uint8Array(size)
  const view = new DataView(out.buffer)
  view.setUint16(0, entries.length)
  let pos = 2
  for (const e of entries) {
    if (e.kind !== undefined) out[pos++] = e.kind
    view.setUint32(pos, e.bytes.byteLength)
    out.set(e.bytes, pos + 4)
    pos += 4 + e.bytes.byteLength
  }
  return out
}

function decodeEntries(
  bytes: Uint8Array,
  withKind: boolean,
  invalid: (message: string) => Error,
): Array<{ kind: number; bytes: Uint8Array }> {
  if (bytes.byteLength < 2) throw invalid('fetch bundle shorter than its count')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const count = view.getUint16(0)
  if (count === 0 || count > MAX_BUNDLE_ENTRIES) throw invalid(`fetch bundle of ${count} entries`)
  const entries: Array<{ kind: number; bytes: Uint8Array }> = []
  let pos = 2
  // Bounded by count (≤ MAX_BUNDLE_ENTRIES); every entry is checked against the bytes left.
  for (let i = 0; i < count; i++) {
    let kind = ENTRY_OK
    if (withKind) {
      if (pos >= bytes.byteLength) throw invalid(`fetch bundle entry ${i} is cut short`)
      kind = bytes[pos++]!
      if (kind !== ENTRY_OK && kind !== ENTRY_ERROR) throw invalid(`fetch bundle entry ${i} has kind ${kind}`)
    }
    if (pos + 4 > bytes.byteLength) throw invalid(`fetch bundle entry ${i} is cut short`)
    const length = view.getUint32(pos)
    pos += 4
    if (length > bytes.byteLength - pos) throw invalid(`fetch bundle entry ${i} declares ${length} bytes past its end`)
    entries.push({ kind, bytes: bytes.subarray(pos, pos + length) })
    pos += length
  }
  if (pos !== bytes.byteLength) throw invalid(`fetch bundle has ${bytes.byteLength - pos} bytes after its entries`)
  return entries
}

/** Records a bundle's answer carries beyond its first entry's; the rest fetch again at once. */
export const BUNDLE_RECORDS_BUDGET_BYTES = 32 * 1024 * 1024
const NO_RECORDS = new Uint8Array(0)
/**
 * Why a parked fetch is told to answer now. One shared reason: `abort()` without one builds a
 * DOMException, stack and all, per parked fetch — a visible share of an idle peer's CPU.
 */
const ANSWER_NOW = new Error('answer now: another fetch of the same follower was answered')

/** A bundle's encoded answer, and how many record bytes its entries carry. */
export interface AnsweredBundle {
  bytes: Uint8Array
  recordBytes: number
}

/**
 * Answers a bundle on the leader's peer: each entry by `answer` (a fetch of its own, which may
 * wait until the signal it is given aborts), the bundle once one entry answered without waiting.
 * Past BUNDLE_RECORDS_BUDGET_BYTES, later entries are answered without their records (their
 * replicas fetch again, as after any answer), so a bundle stays bounded however many partitions
 * are behind.
 */
export async function answerBundle(
  entries: readonly Uint8Array[],
  answer: (entry: Uint8Array, signal: AbortSignal) => Promise<ReplicaFetchResponse>,
  signal: AbortSignal,
  protocol: string,
): Promise<AnsweredBundle> {
  // One controller per entry, not one shared signal: each entry's wait listens on its own, so a
  // bundle of 32 does not put 32 listeners on one signal (Node warns past 10, as for a leak).
  const answerNow = entries.map(() => new AbortController())
  const answerAll = (reason: Error): void => {
    for (const c of answerNow) if (!c.signal.aborted) c.abort(reason)
  }
  const onAbort = (): void => answerAll(abortReason(signal))
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    const answers = await Promise.all(
      entries.map(async (entry, i): Promise<ReplicaFetchResponse | Uint8Array> => {
        try {
          return await answer(entry, answerNow[i]!.signal)
        } catch (err) {
          return encodeErrorPayload(isWireError(err) ? err : unknownServerError(protocol))
        } finally {
          // The first answer ends every other entry's wait.
          answerAll(ANSWER_NOW)
        }
      }),
    )
    let records = 0
    const bytes = encodeBundleResponse(
      answers.map((a, i): BundleAnswer => {
        if (a instanceof Uint8Array) return { ok: false, bytes: a }
        const fits = i === 0 || records + a.records.byteLength <= BUNDLE_RECORDS_BUDGET_BYTES
        if (fits) records += a.records.byteLength
        return { ok: true, bytes: encodeReplicaFetchResponse(fits ? a : { ...a, records: NO_RECORDS }) }
      }),
    )
    return { bytes, recordBytes: records }
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/**
 * The fetches one follower peer has parked on this leader's peer, alone or in bundles. When one
 * ends with nothing to deliver (its long poll ran out, an error), the others are answered too:
 * their replicas then fetch again in the same turn, as one bundle — fetches that started at
 * different moments fall into step after one long poll. An answer that delivers records wakes
 * nobody: under load each busy partition keeps its own pipeline, and waking the caught-up ones
 * on every delivery only sent them round empty. One answered because another was does not wake
 * the rest again, so this never feeds on itself.
 */
export class ParkedFetches {
  readonly #byPeer = new Map<string, Set<{ wake: AbortController; woken: boolean }>>()

  /**
   * Runs `answer` with a signal that aborts with `signal`, or when another fetch of `peer` ends
   * empty. `delivered` says whether an answer carried records (then it wakes nobody).
   */
  async run<T>(
    peer: string,
    signal: AbortSignal,
    answer: (answerNow: AbortSignal) => Promise<T>,
    delivered: (result: T) => boolean = () => false,
  ): Promise<T> {
    const parked = { wake: new AbortController(), woken: false }
    const onAbort = (): void => parked.wake.abort(abortReason(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    let others = this.#byPeer.get(peer)
    if (others === undefined) {
      others = new Set()
      this.#byPeer.set(peer, others)
    }
    others.add(parked)
    let quiet = true
    try {
      const result = await answer(parked.wake.signal)
      quiet = !delivered(result)
      return result
    } finally {
      signal.removeEventListener('abort', onAbort)
      others.delete(parked)
      if (others.size === 0) this.#byPeer.delete(peer)
      else if (!parked.woken && quiet) {
        for (const other of others) {
          other.woken = true
          other.wake.abort(ANSWER_NOW)
        }
      }
    }
  }
}

interface Waiting {
  bytes: Uint8Array
  options: RaftRequestOptions
  resolve: (bytes: Uint8Array) => void
  reject: (err: Error) => void
  settled: boolean
  /** Set while the fetch rides in a bundle: fails it alone when its replica gives it up. */
  onAbort?: () => void
}

export interface BundleSenders {
  /** One fetch as it is (the protocol a lone fetch uses). */
  single(to: string, request: Uint8Array, options: RaftRequestOptions): Promise<Uint8Array>
  /** A bundle; resolves with the encoded bundle response. */
  bundle(to: string, request: Uint8Array, options: RaftRequestOptions): Promise<Uint8Array>
}

/** The client side: gathers one turn's fetches per leader into bundles. */
export class FetchBundler {
  readonly #queued = new Map<string, Waiting[]>()
  #scheduled = false

  constructor(private readonly send: BundleSenders) {}

  /** Sends an encoded ReplicaFetchRequest to `to`; resolves with its encoded response. */
  fetch(to: string, request: Uint8Array, options: RaftRequestOptions): Promise<Uint8Array> {
    if (options.signal.aborted) return Promise.reject(abortReason(options.signal))
    return new Promise((resolve, reject) => {
      let queue = this.#queued.get(to)
      if (queue === undefined) {
        queue = []
        this.#queued.set(to, queue)
      }
      queue.push({ bytes: request, options, resolve, reject, settled: false })
      if (!this.#scheduled) {
        this.#scheduled = true
        nextTurn(() => this.#flush())
      }
    })
  }

  #flush(): void {
    this.#scheduled = false
    const queued = [...this.#queued]
    this.#queued.clear()
    for (const [to, waiting] of queued) {
      const live = waiting.filter((w) => {
        if (w.options.signal.aborted) w.reject(abortReason(w.options.signal))
        return !w.options.signal.aborted
      })
      for (let i = 0; i < live.length; i += MAX_BUNDLE_ENTRIES) {
        const chunk = live.slice(i, i + MAX_BUNDLE_ENTRIES)
        if (chunk.length === 1) {
          const [w] = chunk as [Waiting]
          this.send.single(to, w.bytes, w.options).then(w.resolve, w.reject)
        } else {
          this.#sendBundle(to, chunk)
        }
      }
    }
  }

  #sendBundle(to: string, chunk: Waiting[]): void {
    const controller = new AbortController()
    const timeoutMs = Math.max(...chunk.map((w) => w.options.timeoutMs))
    const settle = (w: Waiting, outcome: () => void): void => {
      if (w.settled) return
      w.settled = true
      w.options.signal.removeEventListener('abort', w.onAbort!)
      outcome()
    }
    for (const w of chunk) {
      // A fetch given up by its replica fails alone; the bundle goes on for the others.
      w.onAbort = () => {
        settle(w, () => w.reject(abortReason(w.options.signal)))
        if (chunk.every((other) => other.settled)) controller.abort(abortReason(w.options.signal))
      }
      w.options.signal.addEventListener('abort', w.onAbort, { once: true })
    }
    this.send
      .bundle(to, encodeBundleRequest(chunk.map((w) => w.bytes)), { signal: controller.signal, timeoutMs })
      .then((bytes) => {
        const answers = decodeBundleResponse(bytes)
        if (answers.length !== chunk.length) {
          throw new InvalidFrameError(`a fetch bundle of ${chunk.length} was answered with ${answers.length}`)
        }
        answers.forEach((a, i) => {
          const w = chunk[i]!
          if (a.ok) settle(w, () => w.resolve(a.bytes))
          else settle(w, () => w.reject(decodeErrorPayload(a.bytes)))
        })
      })
      .catch((err: unknown) => {
        const cause = err instanceof Error ? err : new Error(String(err))
        for (const w of chunk) settle(w, () => w.reject(cause))
      })
  }
}
