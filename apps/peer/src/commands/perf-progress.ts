/**
 * Progress of a perf run on stderr: a cli-progress bar when stderr is a terminal, otherwise a
 * plain line every `intervalMs` (Kafka's perf tools print one every 5 s), so a piped or logged
 * run stays readable. The final figures are the command's data and go to stdout, not here.
 */
import cliProgress from 'cli-progress'

export interface ProgressOptions {
  /** What is counted, for the bar: `records`. */
  unit: string
  total: number
  intervalMs: number
  /** The plain line for the window that just ended (piped output). */
  windowLine: () => string
  stream?: NodeJS.WriteStream
}

export interface Progress {
  update(done: number): void
  stop(): void
}

export function startProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: `{bar} {percentage}% | {value}/{total} ${options.unit} | {rate}/s | {duration_formatted} | ETA {eta_formatted}`,
        hideCursor: true,
        fps: 5,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    )
    const startMs = performance.now()
    bar.start(options.total, 0, { rate: '0' })
    return {
      update(done) {
        const seconds = (performance.now() - startMs) / 1000
        bar.update(done, { rate: seconds > 0 ? Math.round(done / seconds).toLocaleString('en-US') : '0' })
      },
      stop: () => bar.stop(),
    }
  }
  const timer = setInterval(() => stream.write(`${options.windowLine()}\n`), options.intervalMs)
  timer.unref()
  return {
    update() {},
    stop: () => clearInterval(timer),
  }
}
