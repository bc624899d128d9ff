/**
 * The logging surface the log package writes to. It is the subset of pino's API we use, so an
 * application passes `pino().child({ component: 'log' })` and tests pass a recorder.
 */
export interface Logger {
  debug(obj: object, msg?: string): void
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

const noop = (): void => {}

/** Discards everything; the default when no logger is given. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop }
