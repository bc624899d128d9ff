/**
 * Dials the configured bootstrap peers once the node has started, each with bounded retries and
 * exponential backoff with jitter, and gives up cleanly when the node stops. A libp2p service, so it
 * starts and stops with the node: `node.services.bootstrap.done` settles when every address is
 * either connected or out of attempts.
 */
import type { AbortOptions, PeerId, Startable } from '@libp2p/interface'
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr'
import {
  DEFAULT_BOOTSTRAP_ATTEMPTS,
  DEFAULT_BOOTSTRAP_BACKOFF_MS,
  DEFAULT_BOOTSTRAP_DIAL_TIMEOUT_MS,
  DEFAULT_BOOTSTRAP_MAX_BACKOFF_MS,
} from '../constants.js'
import { componentLogger, type Logger, silentLogger } from '../logger.js'

export interface BootstrapOptions {
  /** Dial attempts per address, the first included. */
  attempts?: number
  initialBackoffMs?: number
  maxBackoffMs?: number
  dialTimeoutMs?: number
  /** Stops all bootstrap dialing when aborted (the node stopping does too). */
  signal?: AbortSignal
}

export interface BootstrapInit extends BootstrapOptions {
  peers: ReadonlyArray<string | Multiaddr>
  logger?: Logger
}

export interface BootstrapResult {
  connected: string[]
  failed: string[]
}

export interface BootstrapComponents {
  peerId: PeerId
  connectionManager: { openConnection(peer: Multiaddr, options?: AbortOptions): Promise<unknown> }
}

export interface BootstrapDialer extends Startable {
  /** Settles once every bootstrap address connected or used up its attempts (or the node stopped). */
  readonly done: Promise<BootstrapResult>
}

export function bootstrapDialer(init: BootstrapInit): (components: BootstrapComponents) => BootstrapDialer {
  return (components) => new BootstrapDialerImpl(components, init)
}

class BootstrapDialerImpl implements BootstrapDialer {
  readonly #components: BootstrapComponents
  readonly #init: BootstrapInit
  readonly #logger: Logger
  #lifetime = new AbortController()
  readonly #done: Promise<BootstrapResult>
  #settle!: (result: BootstrapResult) => void

  constructor(components: BootstrapComponents, init: BootstrapInit) {
    this.#components = components
    this.#init = init
    this.#logger = componentLogger(init.logger ?? silentLogger, 'bootstrap')
    this.#done = new Promise((resolve) => {
      this.#settle = resolve
    })
  }

  get done(): Promise<BootstrapResult> {
    return this.#done
  }

  start(): void {
    this.#lifetime = new AbortController()
  }

  afterStart(): void {
    const signals = [this.#lifetime.signal]
    if (this.#init.signal !== undefined) signals.push(this.#init.signal)
    const signal = AbortSignal.any(signals)
    const self = this.#components.peerId.toString()
    const targets = this.#init.peers
      .map((peer) => (typeof peer === 'string' ? multiaddr(peer) : peer))
      .filter((ma) => peerIdOf(ma) !== self)
    // #dialWithRetries never rejects, so neither does this.
    void Promise.all(targets.map(async (ma) => ({ ma, ok: await this.#dialWithRetries(ma, signal) }))).then(
      (results) => {
        const connected = results.filter((r) => r.ok).map((r) => r.ma.toString())
        const failed = results.filter((r) => !r.ok).map((r) => r.ma.toString())
        if (failed.length > 0 && !signal.aborted) this.#logger.warn({ failed }, 'bootstrap peers unreachable')
        this.#settle({ connected, failed })
      },
    )
  }

  stop(): void {
    this.#lifetime.abort(new Error('node stopped'))
  }

  async #dialWithRetries(ma: Multiaddr, signal: AbortSignal): Promise<boolean> {
    const attempts = this.#init.attempts ?? DEFAULT_BOOTSTRAP_ATTEMPTS
    const maxBackoffMs = this.#init.maxBackoffMs ?? DEFAULT_BOOTSTRAP_MAX_BACKOFF_MS
    const dialTimeoutMs = this.#init.dialTimeoutMs ?? DEFAULT_BOOTSTRAP_DIAL_TIMEOUT_MS
    let backoffMs = this.#init.initialBackoffMs ?? DEFAULT_BOOTSTRAP_BACKOFF_MS
    for (let attempt = 1; attempt <= attempts && !signal.aborted; attempt++) {
      try {
        await this.#components.connectionManager.openConnection(ma, {
          signal: AbortSignal.any([signal, AbortSignal.timeout(dialTimeoutMs)]),
        })
        this.#logger.debug({ addr: ma.toString(), attempt }, 'bootstrap peer connected')
        return true
      } catch (err) {
        this.#logger.debug({ addr: ma.toString(), attempt, err: (err as Error).message }, 'bootstrap dial failed')
      }
      if (attempt === attempts) break
      // Full jitter: peers restarted together do not retry in lockstep.
      await sleep(Math.random() * backoffMs, signal)
      backoffMs = Math.min(backoffMs * 2, maxBackoffMs)
    }
    return false
  }
}

function peerIdOf(ma: Multiaddr): string | undefined {
  const p2p = ma.getComponents().findLast((component) => component.name === 'p2p')
  return p2p?.value
}

/** Resolves after `ms`, or early (without error) when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve()
      return
    }
    const done = (): void => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}
