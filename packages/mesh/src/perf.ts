/**
 * `/tributary/perf/1.0.0`: raw throughput of one libp2p stream, after libp2p's perf protocol
 * (https://github.com/libp2p/specs/blob/master/perf/perf.md). The reference every Tributary
 * throughput figure is compared with: what the same two processes move with no protocol on top.
 *
 *   client → server   u64 big-endian: bytes the client wants back, then any number of bytes
 *   client            closes its write side
 *   server → client   the requested bytes, then closes
 *
 * The server counts and drops what it reads (memory stays at one chunk), and answers only after
 * the client's end, so a client's clock covers the delivery of every byte it sent.
 *
 * ```ts
 * const unregister = await registerPerfProtocol(server, { logger })
 * const { mbPerSec } = await measureStreamThroughput(client, serverAddr, { sendBytes: 512 * 2 ** 20 })
 * await unregister()
 * ```
 */
import type { AbortOptions, Libp2p, PeerId, Stream } from '@libp2p/interface'
import type { Multiaddr } from '@multiformats/multiaddr'
import { TributaryError } from '@tributary/wire'
import { PROTOCOLS } from './constants.js'
import { componentLogger, type Logger, silentLogger } from './logger.js'
import { abortReason } from './rpc/abort.js'
import { NETWORK_EXCEPTION } from './rpc/errors.js'

const HEADER_BYTES = 8
const MIB = 2 ** 20
/** libp2p perf's write block: large enough that the per-send() cost disappears (PLATFORM.md). */
export const DEFAULT_PERF_CHUNK_BYTES = 64 * 1024
/** Largest download a client may ask a server for. */
export const DEFAULT_PERF_MAX_BYTES = 1024 * MIB
/** A peer that leaves the stream full this long gets it reset (both sides). */
export const DEFAULT_PERF_DRAIN_TIMEOUT_MS = 30_000
/** A whole measurement, dial included. */
export const DEFAULT_PERF_TIMEOUT_MS = 120_000

/** A client asked for more bytes back than the server's `maxBytes`. */
export class PerfRequestTooLargeError extends TributaryError {
  static override name = 'PerfRequestTooLargeError'
  constructor(requested: bigint, maxBytes: number) {
    super(`perf client asked for ${requested} bytes; this peer sends at most ${maxBytes}`, { retriable: false })
  }
}

/** The perf stream ended, was reset, or stalled before the transfer completed. */
export class PerfStreamError extends TributaryError {
  static override name = 'PerfStreamError'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { ...options, code: NETWORK_EXCEPTION, retriable: true })
  }
}

export interface PerfServerOptions {
  logger?: Logger
  /** Largest download a client may request; a bigger request resets its stream. */
  maxBytes?: number
  drainTimeoutMs?: number
  /** Concurrent perf streams per connection (libp2p's limit). */
  maxInboundStreams?: number
}

/** Stops serving perf and resets the streams in progress. */
export type UnregisterPerfProtocol = () => Promise<void>

export async function registerPerfProtocol(
  node: Pick<Libp2p, 'handle' | 'unhandle'>,
  options: PerfServerOptions = {},
): Promise<UnregisterPerfProtocol> {
  return servePerfStreams(node, PROTOCOLS.perf, 'perf', options, serveStream)
}

/** A perf server's per-stream limits, from its options. */
export interface PerfLimits {
  maxBytes: number
  drainTimeoutMs: number
}

/**
 * Serves `protocol` with `serve`, called once per inbound stream with the limits `options` set
 * (`name` names it in logs and errors). A stream whose `serve` fails is reset and logged; the
 * function returned stops serving and resets the streams in progress. Shared by perf and perf-echo.
 */
export async function servePerfStreams(
  node: Pick<Libp2p, 'handle' | 'unhandle'>,
  protocol: string,
  name: string,
  options: PerfServerOptions,
  serve: (stream: Stream, limits: PerfLimits) => Promise<Record<string, number>>,
): Promise<UnregisterPerfProtocol> {
  const logger = componentLogger(options.logger ?? silentLogger, name)
  const limits: PerfLimits = {
    maxBytes: options.maxBytes ?? DEFAULT_PERF_MAX_BYTES,
    drainTimeoutMs: options.drainTimeoutMs ?? DEFAULT_PERF_DRAIN_TIMEOUT_MS,
  }
  const streams = new Set<Stream>()
  let registered = true

  await node.handle(
    protocol,
    (stream, connection) => {
      if (!registered) {
        stream.abort(new PerfStreamError(`${name} is no longer served`))
        return
      }
      streams.add(stream)
      stream.addEventListener('close', () => streams.delete(stream))
      const peer = connection.remotePeer.toString()
      serve(stream, limits).then(
        (counts) => logger.debug({ peer, ...counts }, `${name} stream done`),
        (err: unknown) => {
          logger.warn({ peer, err: (err as Error).message }, `${name} stream failed`)
          stream.abort(err as Error)
        },
      )
    },
    options.maxInboundStreams === undefined ? {} : { maxInboundStreams: options.maxInboundStreams },
  )

  return async () => {
    if (!registered) return
    registered = false
    await node.unhandle(protocol)
    for (const stream of streams) stream.abort(new PerfStreamError(`${name} is no longer served`))
    streams.clear()
  }
}

/** Reads (and drops) until the client's end, then sends what its header asked for and closes. */
async function serveStream(stream: Stream, limits: PerfLimits): Promise<{ receivedBytes: number; sentBytes: number }> {
  const header = new Uint8Array(HEADER_BYTES)
  let received = 0
  const ended = new Promise<void>((resolve, reject) => {
    stream.addEventListener('message', (evt) => {
      const data = evt.data
      // Only the first 8 bytes are kept; the rest is counted and dropped.
      if (received < HEADER_BYTES) {
        const take = data.subarray(0, Math.min(HEADER_BYTES - received, data.byteLength))
        header.set(take, received)
      }
      received += data.byteLength
    })
    stream.addEventListener('end', () => resolve())
    stream.addEventListener('close', (evt) => {
      reject(evt.error ?? new PerfStreamError('perf stream closed before the client finished sending'))
    })
  })
  await ended
  if (received < HEADER_BYTES) throw new PerfStreamError(`perf stream ended after ${received} of 8 header bytes`)
  const requested = new DataView(header.buffer).getBigUint64(0)
  if (requested > BigInt(limits.maxBytes)) throw new PerfRequestTooLargeError(requested, limits.maxBytes)
  const sent = Number(requested)
  await sendZeros(stream, sent, DEFAULT_PERF_CHUNK_BYTES, limits.drainTimeoutMs)
  await stream.close({ signal: AbortSignal.timeout(limits.drainTimeoutMs) })
  return { receivedBytes: received - HEADER_BYTES, sentBytes: sent }
}

export interface StreamThroughput {
  /** Bytes moved both ways (the 8-byte header not counted). */
  bytes: number
  sentBytes: number
  receivedBytes: number
  /** From the first byte sent to the server's end (after it read everything). */
  seconds: number
  /** MiB (2^20 bytes) per second. */
  mbPerSec: number
}

export interface MeasureOptions extends AbortOptions {
  /** Bytes to upload. */
  sendBytes: number
  /** Bytes to ask back (default 0: upload only). */
  receiveBytes?: number
  chunkBytes?: number
  /** For the whole measurement, dial included. */
  timeoutMs?: number
  drainTimeoutMs?: number
}

/**
 * Opens one perf stream to `peer`, uploads `sendBytes` in `chunkBytes` sends (waiting for 'drain'
 * whenever send() reports a full buffer), asks `receiveBytes` back, and times it.
 */
export async function measureStreamThroughput(
  node: Pick<Libp2p, 'dialProtocol'>,
  peer: PeerId | Multiaddr | Multiaddr[],
  options: MeasureOptions,
): Promise<StreamThroughput> {
  const { sendBytes, receiveBytes = 0, chunkBytes = DEFAULT_PERF_CHUNK_BYTES } = options
  if (!Number.isSafeInteger(sendBytes) || sendBytes < 0 || !Number.isSafeInteger(receiveBytes) || receiveBytes < 0) {
    throw new RangeError('sendBytes and receiveBytes must be non-negative integers')
  }
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes <= 0)
    throw new RangeError('chunkBytes must be a positive integer')
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_PERF_TIMEOUT_MS)
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout])
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_PERF_DRAIN_TIMEOUT_MS

  const stream = await node.dialProtocol(peer, PROTOCOLS.perf, { signal })
  const onAbort = (): void => stream.abort(abortReason(signal))
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    let received = 0
    const finished = new Promise<void>((resolve, reject) => {
      stream.addEventListener('message', (evt) => {
        received += evt.data.byteLength
      })
      stream.addEventListener('end', () => resolve())
      stream.addEventListener('close', (evt) => {
        if (evt.error === undefined) resolve()
        else
          reject(signal.aborted ? abortReason(signal) : new PerfStreamError('perf stream reset', { cause: evt.error }))
      })
    })
    finished.catch(() => {}) // observed below; a reset while sending surfaces from the send loop first

    const started = performance.now()
    const header = new Uint8Array(HEADER_BYTES)
    new DataView(header.buffer).setBigUint64(0, BigInt(receiveBytes))
    stream.send(header)
    await sendZeros(stream, sendBytes, chunkBytes, drainTimeoutMs)
    await stream.close({ signal })
    await finished
    const seconds = (performance.now() - started) / 1000
    if (received !== receiveBytes) {
      throw new PerfStreamError(`perf server sent ${received} bytes, ${receiveBytes} were asked for`)
    }
    const bytes = sendBytes + received
    return { bytes, sentBytes: sendBytes, receivedBytes: received, seconds, mbPerSec: bytes / MIB / seconds }
  } catch (err) {
    stream.abort(err as Error)
    throw signal.aborted ? abortReason(signal) : err
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/**
 * Sends `total` zero bytes in `chunkBytes` sends. send() buffers whatever it is given, so each time
 * it reports a full buffer we wait for 'drain' ourselves (stream.onDrain() stops applying
 * backpressure after its first drain in @libp2p/utils 7.4.1 — PLATFORM.md).
 */
async function sendZeros(stream: Stream, total: number, chunkBytes: number, drainTimeoutMs: number): Promise<void> {
  // One buffer sent again and again: nothing writes into a buffer handed to send().
  const chunk = new Uint8Array(Math.min(chunkBytes, Math.max(total, 1)))
  let sent = 0
  while (sent < total) {
    if (stream.writeStatus !== 'writable') throw new PerfStreamError(`perf stream is ${stream.writeStatus}`)
    const n = Math.min(chunk.byteLength, total - sent)
    const accepted = stream.send(n === chunk.byteLength ? chunk : chunk.subarray(0, n))
    sent += n
    if (!accepted && sent < total) await drained(stream, drainTimeoutMs)
  }
}

/** Resolves at the stream's next 'drain'; rejects if it closes first or `timeoutMs` pass. */
export function drained(stream: Stream, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error): void => {
      clearTimeout(timer)
      stream.removeEventListener('drain', onDrain)
      stream.removeEventListener('close', onClose)
      if (err === undefined) resolve()
      else reject(err)
    }
    const onDrain = (): void => done()
    const onClose = (): void => done(new PerfStreamError('perf stream closed while waiting to send'))
    const timer = setTimeout(() => done(new PerfStreamError(`perf peer did not read for ${timeoutMs} ms`)), timeoutMs)
    stream.addEventListener('drain', onDrain)
    stream.addEventListener('close', onClose)
  })
}
