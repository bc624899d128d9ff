/**
 * `/tributary/perf-echo/1.0.0`: the round-trip time of one libp2p stream — the latency reference
 * for produce, as `/tributary/perf` is the throughput reference. The server sends every message
 * back as it came; the client sends messages of a fixed size on a fixed schedule (open loop, as the
 * produce latency benchmark does) and times each one until its last byte is back. What it measures
 * is what libp2p (noise, yamux, TCP) and the machine cost a request and its answer before any
 * Tributary code runs: the floor under a produce's latency on the same connection.
 *
 *   client → server   any bytes
 *   server → client   the same bytes, in order; the server closes after the client's end
 *
 * The server echoes at most `maxBytes` per stream (then resets it) and stops reading while the
 * client does not read what it sent back.
 *
 * ```ts
 * const unregister = await registerPerfEchoProtocol(server, { logger })
 * const { p99 } = await measureRoundTrips(client, serverAddr, { count: 10_000, intervalMs: 1, messageBytes: 1300 })
 * ```
 */
import type { AbortOptions, Libp2p, PeerId, Stream } from '@libp2p/interface'
import type { Multiaddr } from '@multiformats/multiaddr'
import { PROTOCOLS } from './constants.js'
import {
  DEFAULT_PERF_TIMEOUT_MS,
  drained,
  type PerfLimits,
  PerfRequestTooLargeError,
  type PerfServerOptions,
  PerfStreamError,
  servePerfStreams,
  type UnregisterPerfProtocol,
} from './perf.js'
import { abortReason } from './rpc/abort.js'

/** Largest message a round-trip client sends (one noise message). */
export const MAX_ECHO_MESSAGE_BYTES = 64 * 1024
/** Most round trips one measurement makes (warm-up included). */
export const MAX_ROUND_TRIPS = 1_000_000
/** Messages sent and not yet back beyond this fail the measurement: the other side stopped keeping up. */
export const MAX_ROUND_TRIPS_OUTSTANDING = 1000

/**
 * Serves perf-echo; the function returned stops serving and resets the streams in progress.
 * `maxBytes` bounds what one stream may have echoed (beyond, it is reset).
 */
export function registerPerfEchoProtocol(
  node: Pick<Libp2p, 'handle' | 'unhandle'>,
  options: PerfServerOptions = {},
): Promise<UnregisterPerfProtocol> {
  return servePerfStreams(node, PROTOCOLS.perfEcho, 'perf-echo', options, async (stream, limits) => ({
    bytes: await echo(stream, limits),
  }))
}

/** Sends back what arrives until the client's end, then closes; resolves with the bytes echoed. */
function echo(stream: Stream, limits: PerfLimits): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let echoed = 0
    let failed = false
    const fail = (err: Error): void => {
      failed = true
      reject(err)
    }
    stream.addEventListener('message', (evt) => {
      if (failed) return
      echoed += evt.data.byteLength
      if (echoed > limits.maxBytes) {
        fail(new PerfRequestTooLargeError(BigInt(echoed), limits.maxBytes))
        return
      }
      // A client that does not read its echoes stops being read until it does (or the drain times out).
      if (!stream.send(evt.data) && stream.readStatus === 'readable') {
        stream.pause()
        drained(stream, limits.drainTimeoutMs).then(() => stream.resume(), fail)
      }
    })
    stream.addEventListener('end', () => {
      if (failed) return
      stream.close({ signal: AbortSignal.timeout(limits.drainTimeoutMs) }).then(() => resolve(echoed), fail)
    })
    stream.addEventListener('close', (evt) => {
      if (evt.error !== undefined) fail(new PerfStreamError('perf-echo stream reset', { cause: evt.error }))
    })
  })
}

export interface RoundTripOptions extends AbortOptions {
  /** Round trips measured, after the warm-up. */
  count: number
  /** Message i goes out at start + i × intervalMs, whether or not earlier ones came back. */
  intervalMs: number
  messageBytes: number
  /** Round trips first made and not counted (default 0). */
  warmup?: number
  /** For the whole measurement, dial included. */
  timeoutMs?: number
}

/** Percentiles, maximum and mean of a set of latencies (ms). */
export interface LatencySummary {
  p50: number
  p90: number
  p99: number
  p999: number
  max: number
  mean: number
}

/** Send → last byte of the echo. */
export interface RoundTrips extends LatencySummary {
  count: number
  messageBytes: number
}

/** Opens one perf-echo stream to `peer` and times `count` round trips of `messageBytes` each. */
export async function measureRoundTrips(
  node: Pick<Libp2p, 'dialProtocol'>,
  peer: PeerId | Multiaddr | Multiaddr[],
  options: RoundTripOptions,
): Promise<RoundTrips> {
  const { count, intervalMs, messageBytes, warmup = 0 } = options
  const total = count + warmup
  if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(warmup) || warmup < 0) {
    throw new RangeError('count must be a positive integer and warmup a non-negative one')
  }
  if (total > MAX_ROUND_TRIPS) throw new RangeError(`at most ${MAX_ROUND_TRIPS} round trips, warm-up included`)
  if (!Number.isSafeInteger(messageBytes) || messageBytes < 1 || messageBytes > MAX_ECHO_MESSAGE_BYTES) {
    throw new RangeError(`messageBytes must be an integer from 1 to ${MAX_ECHO_MESSAGE_BYTES}`)
  }
  if (!(intervalMs >= 0) || !Number.isFinite(intervalMs)) throw new RangeError('intervalMs must be a finite number ≥ 0')
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_PERF_TIMEOUT_MS)
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout])

  const stream = await node.dialProtocol(peer, PROTOCOLS.perfEcho, { signal })
  const sentAt: number[] = []
  const latencies = new Float64Array(count)
  let measured = 0
  let received = 0
  let answered = 0
  let settle: { resolve: () => void; reject: (err: Error) => void } | undefined
  let failure: Error | undefined
  const fail = (err: Error): void => {
    failure ??= err
    settle?.reject(failure)
  }
  const onAbort = (): void => {
    fail(abortReason(signal))
    stream.abort(abortReason(signal))
  }
  signal.addEventListener('abort', onAbort, { once: true })
  stream.addEventListener('message', (evt) => {
    received += evt.data.byteLength
    // Echoes come back in order: each full message's worth of bytes answers the oldest one out.
    while (received >= messageBytes && answered < sentAt.length) {
      received -= messageBytes
      const latency = performance.now() - sentAt[answered]!
      if (answered >= warmup) latencies[measured++] = latency
      answered++
    }
    if (answered === total) settle?.resolve()
  })
  stream.addEventListener('close', (evt) => {
    if (answered < total)
      fail(new PerfStreamError('perf-echo stream closed before every echo came back', { cause: evt.error }))
  })
  try {
    const message = new Uint8Array(messageBytes)
    const start = performance.now()
    for (let i = 0; i < total; i++) {
      const wait = start + i * intervalMs - performance.now()
      if (wait > 0) await sleep(wait)
      if (failure !== undefined) throw failure
      if (sentAt.length - answered >= MAX_ROUND_TRIPS_OUTSTANDING) {
        throw new PerfStreamError(`${MAX_ROUND_TRIPS_OUTSTANDING} echoes outstanding: the peer does not keep up`)
      }
      sentAt.push(performance.now())
      stream.send(message)
    }
    if (answered < total) {
      await new Promise<void>((resolve, reject) => {
        if (failure === undefined) settle = { resolve, reject }
        else reject(failure)
      })
    }
    await stream.close({ signal })
    return { count: measured, messageBytes, ...summarizeLatencies(latencies.subarray(0, measured)) }
  } catch (err) {
    stream.abort(err as Error)
    throw signal.aborted ? abortReason(signal) : err
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Summarizes latencies (sorts `values` in place; NaN everywhere when it is empty). */
export function summarizeLatencies(values: Float64Array): LatencySummary {
  const sorted = values.sort()
  const at = (p: number): number =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  return {
    p50: at(50),
    p90: at(90),
    p99: at(99),
    p999: at(99.9),
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length === 0 ? Number.NaN : sorted.reduce((a, b) => a + b, 0) / sorted.length,
  }
}
