/**
 * How `tributary consume` prints a record. `text`: the value, or with `--print-key` the key, the
 * separator and the value (kafka-console-consumer's print.key), null as `null`. `json`: one
 * object per line with topic, partition, offset, timestamp, key, value and headers; bytes are
 * read as UTF-8 and offsets/timestamps are numbers (strings beyond 2^53).
 */

export interface ConsumedMessage {
  key: Uint8Array | null
  value: Uint8Array | null
  headers: Record<string, Uint8Array | null | Array<Uint8Array | null>>
  timestamp: string
  offset: string
}

export interface TextStyle {
  printKey: boolean
  keySeparator: string
}

const utf8 = new TextDecoder()

function text(bytes: Uint8Array | null): string | null {
  return bytes === null ? null : utf8.decode(bytes)
}

function int64(value: string): number | string {
  const n = Number(value)
  return Number.isSafeInteger(n) ? n : value
}

export function formatText(message: ConsumedMessage, style: TextStyle): string {
  const value = text(message.value) ?? 'null'
  return style.printKey ? `${text(message.key) ?? 'null'}${style.keySeparator}${value}` : value
}

export function formatJson(topic: string, partition: number, message: ConsumedMessage): string {
  const headers: Record<string, string | null | Array<string | null>> = {}
  for (const [name, value] of Object.entries(message.headers)) {
    headers[name] = Array.isArray(value) ? value.map(text) : text(value)
  }
  return JSON.stringify({
    topic,
    partition,
    offset: int64(message.offset),
    timestamp: int64(message.timestamp),
    key: text(message.key),
    value: text(message.value),
    headers,
  })
}
