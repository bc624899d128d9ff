import { TributaryError } from '@tributary/wire'

/**
 * Re-raises a wire error with the partition (and offset) it concerns, keeping its class, code
 * and retriable flag, so a user reads "orders-3 at offset 120: batch failed its CRC check"
 * rather than a bare codec message.
 */
export function inPartition(err: unknown, where: string): unknown {
  if (!(err instanceof TributaryError)) return err
  if (err.message.startsWith(where)) return err
  const Ctor = err.constructor as new (message: string, options?: { cause?: unknown }) => TributaryError
  try {
    const wrapped = new Ctor(`${where}: ${err.message}`, { cause: err })
    return wrapped.code === err.code ? wrapped : err
  } catch {
    return err
  }
}
