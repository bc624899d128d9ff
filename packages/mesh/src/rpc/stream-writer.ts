/**
 * Serialised, backpressure-aware writes to a libp2p 3 stream. `send()` returns false when the
 * stream's buffer is full; the next write then waits for the stream's own 'drain' event.
 * (`stream.onDrain()` is not used: in @libp2p/utils 7.4.1 it caches its promise and stops applying
 * backpressure after the first drain — PLATFORM.md.)
 */
import type { Stream } from '@libp2p/interface'
import { TributaryError } from '@tributary/wire'
import type { Uint8ArrayList } from 'uint8arraylist'
import { NETWORK_EXCEPTION, RpcStreamClosedError } from './errors.js'

/** The peer stopped reading: its stream stayed full for longer than the drain timeout. */
export class DrainTimeoutError extends TributaryError {
  static override name = 'DrainTimeoutError'
  constructor(timeoutMs: number) {
    super(`peer did not read from the stream for ${timeoutMs} ms`, { code: NETWORK_EXCEPTION, retriable: true })
  }
}

export interface WriteOptions {
  /** When aborted before the write's turn comes, the bytes are not sent and the write rejects. */
  signal?: AbortSignal
  /** When it has settled (its request was answered otherwise) before the write's turn, likewise. */
  unless?: { readonly settled: boolean }
}

/** A write skipped because its request settled before the write's turn (WriteOptions.unless). */
export class WriteSkippedError extends Error {
  override name = 'WriteSkippedError'
}

export class StreamWriter {
  readonly #stream: Stream
  readonly #drainTimeoutMs: number
  #tail: Promise<void> = Promise.resolve()

  constructor(stream: Stream, drainTimeoutMs: number) {
    this.#stream = stream
    this.#drainTimeoutMs = drainTimeoutMs
  }

  /**
   * Queues `data` behind earlier writes. Resolves once the stream accepted it (not once the peer
   * read it). The queue is bounded by the callers' in-flight limits, not here.
   */
  write(data: Uint8Array | Uint8ArrayList<ArrayBufferLike>, options?: WriteOptions): Promise<void> {
    const result = this.#tail.then(() => this.#send(data, options))
    this.#tail = result.catch(() => {})
    return result
  }

  async #send(data: Uint8Array | Uint8ArrayList<ArrayBufferLike>, options?: WriteOptions): Promise<void> {
    options?.signal?.throwIfAborted()
    assertNotSettled(options)
    this.#assertWritable()
    if (this.#stream.writableNeedsDrain) {
      await waitForDrain(this.#stream, this.#drainTimeoutMs, options?.signal)
      assertNotSettled(options)
      this.#assertWritable()
    }
    this.#stream.send(data)
  }

  #assertWritable(): void {
    if (this.#stream.writeStatus !== 'writable') {
      throw new RpcStreamClosedError(`stream is ${this.#stream.writeStatus}`)
    }
  }
}

function assertNotSettled(options: WriteOptions | undefined): void {
  if (options?.unless?.settled === true) throw new WriteSkippedError('request settled before its turn to be written')
}

function waitForDrain(stream: Stream, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error): void => {
      clearTimeout(timer)
      stream.removeEventListener('drain', onDrain)
      stream.removeEventListener('close', onClose)
      signal?.removeEventListener('abort', onAbort)
      if (err === undefined) resolve()
      else reject(err)
    }
    const onDrain = (): void => done()
    const onClose = (): void => done(new RpcStreamClosedError('stream closed while waiting to write'))
    const onAbort = (): void => done(signal?.reason instanceof Error ? signal.reason : new Error('aborted'))
    const timer = setTimeout(() => done(new DrainTimeoutError(timeoutMs)), timeoutMs)
    stream.addEventListener('drain', onDrain)
    stream.addEventListener('close', onClose)
    signal?.addEventListener('abort', onAbort)
    if (signal?.aborted) onAbort()
  })
}
