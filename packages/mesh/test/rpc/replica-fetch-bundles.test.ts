import { ErrorCode, InvalidRequestError, NotLeaderOrFollowerError } from '@tributary/wire'
import { describe, expect, it, vi } from 'vitest'
import { decodeReplicaFetchResponse, type ReplicaFetchResponse } from '../../src/raft/index.js'
import {
  answerBundle,
  BUNDLE_RECORDS_BUDGET_BYTES,
  type BundleSenders,
  decodeBundleRequest,
  decodeBundleResponse,
  encodeBundleRequest,
  encodeBundleResponse,
  FetchBundler,
  MAX_BUNDLE_ENTRIES,
  ParkedFetches,
} from '../../src/replica-fetch-bundles.js'
import { decodeErrorPayload, encodeErrorPayload } from '../../src/rpc/error-payload.js'
import { InvalidFrameError } from '../../src/rpc/errors.js'

const bytes = (...b: number[]) => new Uint8Array(b)
const options = (timeoutMs = 1000, signal = new AbortController().signal) => ({ signal, timeoutMs })

function response(partition: number, records = new Uint8Array(0)): ReplicaFetchResponse {
  return {
    errorCode: ErrorCode.NONE,
    errorMessage: '',
    leaderId: 'leader',
    leaderEpoch: 3,
    highWatermark: partition,
    logStartOffset: 0,
    records,
    divergingEpoch: undefined,
  }
}

describe('mesh > replica fetch bundles', () => {
  describe('codec', () => {
    it('round-trips requests and answers, empty entries included', () => {
      const entries = [bytes(1, 2, 3), bytes(), bytes(9)]
      expect(decodeBundleRequest(encodeBundleRequest(entries))).toEqual(entries)
      const answers = [
        { ok: true, bytes: bytes(4, 5) },
        { ok: false, bytes: bytes(6) },
      ]
      expect(decodeBundleResponse(encodeBundleResponse(answers))).toEqual(answers)
    })

    it('refuses malformed bundles with typed errors before decoding any entry', () => {
      const good = encodeBundleRequest([bytes(1, 2), bytes(3)])
      const cases: Array<[string, Uint8Array]> = [
        ['empty', bytes()],
        ['no entries', bytes(0, 0)],
        ['too many entries', bytes(0xff, 0xff)],
        ['cut short', good.subarray(0, good.byteLength - 1)],
        ['trailing bytes', new Uint8Array([...good, 7])],
        ['a length past the end', bytes(0, 1, 0x7f, 0xff, 0xff, 0xff, 1)],
      ]
      for (const [what, input] of cases) {
        expect(() => decodeBundleRequest(input), what).toThrow(InvalidRequestError)
        expect(() => decodeBundleResponse(input), what).toThrow(InvalidFrameError)
      }
      expect(() => decodeBundleResponse(bytes(0, 1, 7, 0, 0, 0, 0))).toThrow(/kind 7/)
      expect(() => encodeBundleRequest([])).toThrow(RangeError)
      expect(() => encodeBundleRequest(Array.from({ length: MAX_BUNDLE_ENTRIES + 1 }, () => bytes(1)))).toThrow(
        RangeError,
      )
    })
  })

  describe('answering a bundle', () => {
    it('answers once one entry answers without waiting; the waiting ones then answer at once', async () => {
      const waited: boolean[] = []
      const answer = (entry: Uint8Array, signal: AbortSignal): Promise<ReplicaFetchResponse> => {
        const partition = entry[0]!
        // Partition 1 has data now; the others long-poll until told to answer.
        if (partition === 1) return Promise.resolve(response(1, bytes(42)))
        return new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            waited[partition] = true
            resolve(response(partition))
          })
        })
      }
      const answered = await answerBundle([bytes(0), bytes(1), bytes(2)], answer, new AbortController().signal, 'p')
      expect(answered.recordBytes).toBe(1)
      const out = decodeBundleResponse(answered.bytes)
      expect(out.map((a) => a.ok)).toEqual([true, true, true])
      const decoded = out.map((a) => decodeReplicaFetchResponse(a.bytes))
      expect(decoded.map((r) => r.highWatermark)).toEqual([0, 1, 2])
      expect([...decoded[1]!.records]).toEqual([42])
      expect(waited[0] && waited[2]).toBe(true)
    })

    it('gives each entry a signal of its own, so a full bundle crowds no single signal with listeners', async () => {
      const signals = new Set<AbortSignal>()
      const entries = Array.from({ length: MAX_BUNDLE_ENTRIES }, (_, i) => bytes(i))
      const answered = await answerBundle(
        entries,
        async (entry, signal) => {
          signals.add(signal)
          if (entry[0] === MAX_BUNDLE_ENTRIES - 1) return response(0)
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
          return response(entry[0]!)
        },
        new AbortController().signal,
        'p',
      )
      expect(signals.size).toBe(MAX_BUNDLE_ENTRIES)
      expect(decodeBundleResponse(answered.bytes)).toHaveLength(MAX_BUNDLE_ENTRIES)
    })

    it('answers an entry that fails with its own error, the others as usual', async () => {
      const out = decodeBundleResponse(
        await answerBundle(
          [bytes(0), bytes(1), bytes(2)],
          async (entry) => {
            if (entry[0] === 1) throw new NotLeaderOrFollowerError('not here')
            if (entry[0] === 2) throw new Error('/secret/path exploded')
            return response(0)
          },
          new AbortController().signal,
          'raft-fetch-bundle',
        ).then((a) => a.bytes),
      )
      expect(out.map((a) => a.ok)).toEqual([true, false, false])
      expect(decodeErrorPayload(out[1]!.bytes)).toBeInstanceOf(NotLeaderOrFollowerError)
      const hidden = decodeErrorPayload(out[2]!.bytes)
      expect(hidden.code).toBe(ErrorCode.UNKNOWN_SERVER_ERROR)
      expect(hidden.message).not.toContain('secret')
    })

    it('answers entries past the records budget without their records (the first keeps its own)', async () => {
      const big = new Uint8Array(BUNDLE_RECORDS_BUDGET_BYTES / 2 + 1)
      const out = decodeBundleResponse(
        await answerBundle(
          [bytes(0), bytes(1), bytes(2)],
          async (entry) => response(entry[0]!, big),
          new AbortController().signal,
          'p',
        ).then((a) => a.bytes),
      ).map((a) => decodeReplicaFetchResponse(a.bytes))
      expect(out.map((r) => r.records.byteLength)).toEqual([big.byteLength, 0, 0])
      // The high watermark and epoch still reach the replicas whose records were left out.
      expect(out.map((r) => r.highWatermark)).toEqual([0, 1, 2])
    })
  })

  describe('sending', () => {
    function senders() {
      const calls: Array<{ kind: 'single' | 'bundle'; to: string; request: Uint8Array; timeoutMs: number }> = []
      const pending: Array<{ resolve: (b: Uint8Array) => void; reject: (e: Error) => void; signal: AbortSignal }> = []
      const send: BundleSenders = {
        single: (to, request, o) => {
          calls.push({ kind: 'single', to, request, timeoutMs: o.timeoutMs })
          return new Promise((resolve, reject) => pending.push({ resolve, reject, signal: o.signal }))
        },
        bundle: (to, request, o) => {
          calls.push({ kind: 'bundle', to, request, timeoutMs: o.timeoutMs })
          return new Promise((resolve, reject) => pending.push({ resolve, reject, signal: o.signal }))
        },
      }
      return { calls, pending, send }
    }

    it("sends one turn's fetches to a leader as one bundle, and a lone fetch as it is", async () => {
      const { calls, pending, send } = senders()
      const bundler = new FetchBundler(send)
      const a = bundler.fetch('L1', bytes(1), options(800))
      const b = bundler.fetch('L1', bytes(2), options(1200))
      const c = bundler.fetch('L2', bytes(3), options())
      await vi.waitFor(() => expect(calls).toHaveLength(2))
      expect(calls.map((x) => [x.kind, x.to])).toEqual([
        ['bundle', 'L1'],
        ['single', 'L2'],
      ])
      expect(decodeBundleRequest(calls[0]!.request)).toEqual([bytes(1), bytes(2)])
      expect(calls[0]!.timeoutMs).toBe(1200)
      pending[0]!.resolve(
        encodeBundleResponse([
          { ok: true, bytes: bytes(10) },
          { ok: false, bytes: encodeErrorPayload(new NotLeaderOrFollowerError('moved')) },
        ]),
      )
      pending[1]!.resolve(bytes(30))
      expect(await a).toEqual(bytes(10))
      await expect(b).rejects.toBeInstanceOf(NotLeaderOrFollowerError)
      expect(await c).toEqual(bytes(30))
    })

    it('splits more than a bundle holds into several bundles', async () => {
      const { calls, send } = senders()
      const bundler = new FetchBundler(send)
      for (let i = 0; i < MAX_BUNDLE_ENTRIES + 2; i++) bundler.fetch('L', bytes(i), options()).catch(() => {})
      await vi.waitFor(() => expect(calls).toHaveLength(2))
      expect(calls.map((c) => decodeBundleRequest(c.request).length)).toEqual([MAX_BUNDLE_ENTRIES, 2])
    })

    it('fails a fetch given up by its replica alone, and drops the bundle once every fetch in it is given up', async () => {
      const { pending, send } = senders()
      const bundler = new FetchBundler(send)
      const [ca, cb] = [new AbortController(), new AbortController()]
      const a = bundler.fetch('L', bytes(1), options(1000, ca.signal))
      const b = bundler.fetch('L', bytes(2), options(1000, cb.signal))
      await vi.waitFor(() => expect(pending).toHaveLength(1))
      ca.abort(new Error('replica stopped'))
      await expect(a).rejects.toThrow('replica stopped')
      expect(pending[0]!.signal.aborted).toBe(false)
      cb.abort(new Error('replica stopped too'))
      await expect(b).rejects.toThrow('replica stopped too')
      expect(pending[0]!.signal.aborted).toBe(true)
    })

    it('fails every fetch of a bundle that fails, or whose answer does not match it', async () => {
      const { pending, send } = senders()
      const bundler = new FetchBundler(send)
      const first = [bundler.fetch('L', bytes(1), options()), bundler.fetch('L', bytes(2), options())]
      await vi.waitFor(() => expect(pending).toHaveLength(1))
      pending[0]!.reject(new Error('stream reset'))
      for (const r of await Promise.allSettled(first)) expect(r).toMatchObject({ reason: { message: 'stream reset' } })
      const second = [bundler.fetch('L', bytes(1), options()), bundler.fetch('L', bytes(2), options())]
      await vi.waitFor(() => expect(pending).toHaveLength(2))
      pending[1]!.resolve(encodeBundleResponse([{ ok: true, bytes: bytes(1) }]))
      for (const r of await Promise.allSettled(second)) {
        expect(r.status === 'rejected' && r.reason instanceof InvalidFrameError).toBe(true)
      }
    })

    it('never sends a fetch whose signal aborted before the turn ended', async () => {
      const { calls, send } = senders()
      const bundler = new FetchBundler(send)
      const controller = new AbortController()
      const gone = bundler.fetch('L', bytes(1), options(1000, controller.signal))
      controller.abort(new Error('gone'))
      await expect(gone).rejects.toThrow('gone')
      await new Promise((resolve) => setImmediate(resolve))
      expect(calls).toHaveLength(0)
    })
  })

  describe("a follower's parked fetches", () => {
    /** A fetch that waits until woken (or its own `finish`), reporting why it ended. */
    function parkedFetch(parked: ParkedFetches, peer: string, ended: string[], name: string) {
      let finish!: (records: number) => void
      const done = parked.run(
        peer,
        new AbortController().signal,
        (answerNow) => {
          return new Promise<number>((resolve) => {
            finish = (records) => {
              ended.push(`${name}: answered`)
              resolve(records)
            }
            answerNow.addEventListener('abort', () => {
              ended.push(`${name}: woken`)
              resolve(0)
            })
          })
        },
        (records) => records > 0,
      )
      return { done, finish: (records = 0) => finish(records) }
    }

    it('are not woken by an answer that delivers records', async () => {
      const parked = new ParkedFetches()
      const ended: string[] = []
      const a = parkedFetch(parked, 'F1', ended, 'a')
      const b = parkedFetch(parked, 'F1', ended, 'b')
      a.finish(100)
      await a.done
      await new Promise((resolve) => setImmediate(resolve))
      expect(ended).toEqual(['a: answered'])
      b.finish()
      await b.done
      expect(ended).toEqual(['a: answered', 'b: answered'])
    })

    it('are answered together once one ends empty on its own account, without waking each other again', async () => {
      const parked = new ParkedFetches()
      const ended: string[] = []
      const a = parkedFetch(parked, 'F1', ended, 'a')
      const b = parkedFetch(parked, 'F1', ended, 'b')
      const c = parkedFetch(parked, 'F1', ended, 'c')
      const other = parkedFetch(parked, 'F2', ended, 'other')
      a.finish()
      await Promise.all([a.done, b.done, c.done])
      expect(ended).toEqual(['a: answered', 'b: woken', 'c: woken'])
      // Another follower's fetch is not woken; and the woken ones woke nobody: a fetch parked
      // after them waits for its own answer.
      const d = parkedFetch(parked, 'F1', ended, 'd')
      await new Promise((resolve) => setImmediate(resolve))
      expect(ended).toHaveLength(3)
      d.finish()
      other.finish()
      await Promise.all([d.done, other.done])
      expect(ended.slice(3)).toEqual(['d: answered', 'other: answered'])
    })

    it('answer at once when the request is aborted', async () => {
      const parked = new ParkedFetches()
      const controller = new AbortController()
      const done = parked.run(
        'F',
        controller.signal,
        (answerNow) => new Promise<string>((resolve) => answerNow.addEventListener('abort', () => resolve('now'))),
      )
      controller.abort()
      expect(await done).toBe('now')
    })
  })
})
