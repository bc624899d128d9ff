/**
 * Time series for the charts, bounded to the last `capacity` samples. Throughput is derived
 * from successive totals (sum of high watermarks): records appended per second between polls.
 */
export class Series {
  readonly times: number[] = []
  private readonly lines = new Map<string, Array<number | null>>()

  constructor(readonly capacity: number) {}

  /** Adds one sample time with a value per line; lines missing from `values` get a gap. */
  push(timeMs: number, values: Record<string, number>): void {
    this.times.push(timeMs / 1000)
    for (const name of Object.keys(values)) {
      if (!this.lines.has(name)) this.lines.set(name, new Array<number | null>(this.times.length - 1).fill(null))
    }
    for (const [name, line] of this.lines) line.push(values[name] ?? null)
    while (this.times.length > this.capacity) {
      this.times.shift()
      for (const line of this.lines.values()) line.shift()
    }
    for (const [name, line] of this.lines) if (line.every((v) => v === null)) this.lines.delete(name)
  }

  names(): string[] {
    return [...this.lines.keys()].sort()
  }

  /** uPlot's data layout: [times, ...one array per line in `names()` order]. */
  data(): [number[], ...Array<Array<number | null>>] {
    return [[...this.times], ...this.names().map((n) => [...this.lines.get(n)!])]
  }

  /** The largest value of a line in the window (null when it has none). */
  peak(name: string): number | null {
    const values = (this.lines.get(name) ?? []).filter((v): v is number => v !== null)
    return values.length === 0 ? null : Math.max(...values)
  }

  latest(name: string): number | null {
    const line = this.lines.get(name)
    return line === undefined ? null : (line[line.length - 1] ?? null)
  }
}

/**
 * Per-key rate between two totals taken at two times. A total that went down (a topic
 * re-created, a leader that lost an unreplicated tail) restarts from zero rather than going negative.
 */
export function rates(
  previous: { timeMs: number; totals: Map<string, number> } | undefined,
  current: { timeMs: number; totals: Map<string, number> },
): Record<string, number> {
  const out: Record<string, number> = {}
  if (previous === undefined) return out
  const seconds = (current.timeMs - previous.timeMs) / 1000
  if (seconds <= 0) return out
  for (const [key, total] of current.totals) {
    const before = previous.totals.get(key)
    if (before === undefined) continue
    out[key] = Math.max(0, total - before) / seconds
  }
  return out
}
