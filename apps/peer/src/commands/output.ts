/**
 * Where commands write: data to stdout, diagnostics to stderr. Stdout is written with
 * backpressure (a slow reader slows the command, memory stays flat), and a closed stdout
 * (`tributary consume … | head`) is not a failure: the command is told through `closed` and
 * stops, and the CLI exits 0 like other tools whose reader left.
 */
import type { Writable } from 'node:stream'

export class Output {
  private readonly stoppedByReader = new AbortController()
  private broken = false

  constructor(
    private readonly out: Writable = process.stdout,
    private readonly err: Writable = process.stderr,
  ) {
    out.on('error', this.onError)
  }

  private readonly onError = (error: NodeJS.ErrnoException): void => {
    this.broken = true
    // EPIPE / ERR_STREAM_DESTROYED: the reader is gone; anything else is still a reason to stop.
    this.stoppedByReader.abort(error)
  }

  /** Aborted when stdout's reader went away. */
  get closed(): AbortSignal {
    return this.stoppedByReader.signal
  }

  /** Writes `text` to stdout; resolves when it may take more. A no-op once the reader left. */
  async write(text: string): Promise<void> {
    if (this.broken) return
    if (this.out.write(text)) return
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.out.off('drain', done)
        this.stoppedByReader.signal.removeEventListener('abort', done)
        resolve()
      }
      this.out.on('drain', done)
      this.stoppedByReader.signal.addEventListener('abort', done)
    })
  }

  line(text: string): Promise<void> {
    return this.write(`${text}\n`)
  }

  json(value: unknown): Promise<void> {
    return this.line(JSON.stringify(value, jsonReplacer))
  }

  /** A diagnostic line on stderr (never fails the command). */
  note(text: string): void {
    try {
      this.err.write(`${text}\n`)
    } catch {
      // stderr gone too: nothing left to tell.
    }
  }

  dispose(): void {
    this.out.off('error', this.onError)
    // Keep a late EPIPE (emitted after the command finished) from crashing the process.
    this.out.on('error', () => {})
  }
}

/** 64-bit offsets arrive as bigint; JSON has no bigint, so they print as numbers when exact, else strings. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString()
  return value
}

/** Rows as aligned columns under a header, the way `kafka-topics --describe` reads. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const render = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd()
  return [render(header), ...rows.map(render)].join('\n')
}
