/**
 * Test helpers for the mesh: a deadline-bounded `waitFor`, a recording logger, and a node session
 * that stops everything it started.
 */
import type { Logger } from '../src/logger.js'
import { createMeshNode, type MeshNode, type MeshNodeOptions } from '../src/node/index.js'

export interface WaitForOptions {
  timeoutMs?: number
  intervalMs?: number
  /** Shown when the deadline passes. */
  message?: string
}

/**
 * Polls `fn` until it returns a truthy value (which is returned) or the deadline passes (then throws
 * with the last error or value). Never sleep-and-hope: wait for the condition itself.
 */
export async function waitFor<T>(fn: () => T | Promise<T>, options: WaitForOptions = {}): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? 5000
  const intervalMs = options.intervalMs ?? 20
  const deadline = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    try {
      const value = await fn()
      if (value) return value as NonNullable<T>
      last = value
    } catch (err) {
      last = err
    }
    if (Date.now() >= deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last)
      throw new Error(`${options.message ?? 'condition'} not met within ${timeoutMs} ms (last: ${detail})`)
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error'
  obj: object
  msg: string | undefined
}

export interface RecordingLogger extends Logger {
  entries: LogEntry[]
  warnings(): LogEntry[]
}

export function recordingLogger(): RecordingLogger {
  const entries: LogEntry[] = []
  const record =
    (level: LogEntry['level']) =>
    (obj: object, msg?: string): void => {
      entries.push({ level, obj, msg })
    }
  return {
    entries,
    warnings: () => entries.filter((entry) => entry.level === 'warn'),
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  }
}

/** Starts nodes on 127.0.0.1 with ephemeral ports and stops every one of them in `stopAll()`. */
export class NodeSession {
  readonly #nodes: MeshNode[] = []
  readonly #cleanups: Array<() => Promise<void> | void> = []

  async node(options: MeshNodeOptions = {}): Promise<MeshNode> {
    const node = await createMeshNode({ host: '127.0.0.1', tcpPort: 0, wsPort: 0, ...options })
    this.#nodes.push(node)
    return node
  }

  /** Runs before the nodes stop, last registered first (membership.stop, unregister, client.close). */
  onCleanup(cleanup: () => Promise<void> | void): void {
    this.#cleanups.push(cleanup)
  }

  async stopAll(): Promise<void> {
    const errors: unknown[] = []
    for (const cleanup of this.#cleanups.splice(0).reverse()) {
      try {
        await cleanup()
      } catch (err) {
        errors.push(err)
      }
    }
    const results = await Promise.allSettled(this.#nodes.splice(0).map((node) => node.stop()))
    for (const result of results) if (result.status === 'rejected') errors.push(result.reason)
    if (errors.length > 0) throw new AggregateError(errors, 'cleanup failed')
  }
}

/** The node's TCP multiaddr (with /p2p/), for dialing and bootstrap lists. */
export function tcpAddr(node: MeshNode): string {
  const addr = node.getMultiaddrs().find((ma) => !ma.toString().includes('/ws'))
  if (addr === undefined) throw new Error('node has no TCP address')
  return addr.toString()
}

export function wsAddr(node: MeshNode): string {
  const addr = node.getMultiaddrs().find((ma) => ma.toString().includes('/ws'))
  if (addr === undefined) throw new Error('node has no WebSocket address')
  return addr.toString()
}
