/**
 * Parsers for command-line values. Each throws commander's InvalidArgumentError, which commander
 * reports as `error: option '--x <n>' argument 'y' is invalid. <why>` and the CLI exits 2.
 */
import { InvalidArgumentError } from 'commander'

/** Headers given with `--headers` apply to every record; more than this is a mistake, not a use. */
export const MAX_HEADERS = 64
export const MAX_CONFIGS = 256

export function integerIn(min: number, max: number, what = 'a whole number'): (value: string) => number {
  return (value) => {
    const n = Number(value)
    // Digits only: Number() would also take '1e3', '0x10' and ' 7 '.
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        `must be ${what} from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`,
      )
    return n
  }
}

/** A partition number (Kafka's limit on a topic's partitions is far below this). */
export const partition = integerIn(0, 1_000_000, 'a partition number')
export const positiveCount = integerIn(1, Number.MAX_SAFE_INTEGER, 'a count')
export const milliseconds = integerIn(1, 24 * 3_600_000, 'milliseconds')

export type AcksOption = 0 | 1 | 'all'

export function acks(value: string): AcksOption {
  if (value === '0') return 0
  if (value === '1') return 1
  if (value === 'all' || value === '-1') return 'all'
  throw new InvalidArgumentError('must be 0, 1 or all')
}

/** `earliest`, `latest`, or an offset ≥ 0 (the SDK takes offsets up to 2^53 - 1). */
export type OffsetOption = 'earliest' | 'latest' | number

export function offset(value: string): OffsetOption {
  if (value === 'earliest' || value === 'latest') return value
  const n = Number(value)
  if (/^\d{1,16}$/.test(value) && Number.isSafeInteger(n)) return n
  throw new InvalidArgumentError('must be earliest, latest or an offset (a whole number ≥ 0)')
}

export type Format = 'text' | 'json'

export function format(value: string): Format {
  if (value === 'text' || value === 'json') return value
  throw new InvalidArgumentError('must be text or json')
}

/**
 * One `--config key=value` (repeatable): Kafka's topic config names, values as strings; the peer
 * validates names and values. A repeated key keeps the last value, as Kafka's tools do.
 */
export function config(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf('=')
  const key = eq < 0 ? '' : value.slice(0, eq).trim()
  if (eq <= 0 || key === '' || !/^[a-z0-9._-]+$/i.test(key))
    throw new InvalidArgumentError('must be key=value, e.g. retention.ms=86400000')
  const next = { ...previous, [key]: value.slice(eq + 1).trim() }
  if (Object.keys(next).length > MAX_CONFIGS) throw new InvalidArgumentError(`at most ${MAX_CONFIGS} configs`)
  return next
}

/**
 * `--headers k=v,k2=v2`: headers added to every record. Keys may not be empty; a value may be
 * (`k=`). Commas and `=` cannot be escaped: a value holding them needs the SDK.
 */
export function headers(value: string): Record<string, string> {
  const out: Record<string, string> = {}
  const parts = value.split(',')
  if (parts.length > MAX_HEADERS) throw new InvalidArgumentError(`at most ${MAX_HEADERS} headers`)
  for (const part of parts) {
    const eq = part.indexOf('=')
    if (eq <= 0) throw new InvalidArgumentError(`'${part}' is not key=value (headers look like k=v,k2=v2)`)
    out[part.slice(0, eq)] = part.slice(eq + 1)
  }
  return out
}

/** A separator typed on a command line: `\t`, `\n` and `\\` are understood, as in kcat. */
export function separator(value: string): string {
  const unescaped = value.replace(/\\([tn\\])/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : '\\'))
  if (unescaped === '') throw new InvalidArgumentError('must not be empty')
  if (unescaped.includes('\n')) throw new InvalidArgumentError('must not contain a newline (records are lines)')
  return unescaped
}

/** A positive number (rates may be fractional); -1 means unlimited, as in Kafka's perf tools. */
export function throughput(value: string): number {
  const n = Number(value)
  if (n === -1) return -1
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('must be records per second (> 0), or -1 for no limit')
  return n
}

/** Topic names as Kafka allows them; the peer checks again, this only spares a round trip. */
export function topicName(value: string): string {
  if (value === '.' || value === '..' || !/^[a-zA-Z0-9._-]{1,249}$/.test(value))
    throw new InvalidArgumentError('a topic name is 1-249 characters of a-z, A-Z, 0-9, ".", "_" and "-"')
  return value
}

/** For a variadic `[topics...]` argument: each name checked, collected in order. */
export function topicNames(value: string, previous: string[] = []): string[] {
  return [...previous, topicName(value)]
}
