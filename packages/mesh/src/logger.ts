/**
 * The mesh logs through the same pino-compatible surface as the log package, so an application
 * passes `pino().child({ component: 'mesh' })` once and tests pass a recorder.
 */
import type { Logger } from '@tributary/log'

export type { Logger }

const noop = (): void => {}

/** Discards everything; the default when no logger is given. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop }

/**
 * Tags every entry with `component` (what pino's `child({ component })` does), for loggers that are
 * not pino. Defined here rather than imported at runtime so browser bundles stay free of the log package.
 */
export function componentLogger(logger: Logger, component: string): Logger {
  if (logger === silentLogger) return logger
  return {
    debug: (obj, msg) => logger.debug({ component, ...obj }, msg),
    info: (obj, msg) => logger.info({ component, ...obj }, msg),
    warn: (obj, msg) => logger.warn({ component, ...obj }, msg),
    error: (obj, msg) => logger.error({ component, ...obj }, msg),
  }
}
