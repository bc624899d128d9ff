/**
 * Lines → the SDK's messages for `tributary produce`: the key is what comes before the first
 * `--key-separator` (Kafka's console producer's `parse.key`/`key.separator`), the value the rest;
 * without a separator the whole line is the value and the key is null. `--headers` and
 * `--partition` apply to every record.
 */
export class MissingKeySeparatorError extends Error {
  static override name = 'MissingKeySeparatorError'
  constructor(
    readonly lineNumber: number,
    separator: string,
  ) {
    super(`line ${lineNumber} has no key separator ${JSON.stringify(separator)} (--key-separator)`)
    this.name = 'MissingKeySeparatorError'
  }
}

export interface LineMessage {
  key: Buffer | null
  value: Buffer
  headers?: Record<string, string>
  partition?: number
}

export interface RecordShape {
  keySeparator: Buffer | undefined
  headers: Record<string, string> | undefined
  partition: number | undefined
}

/**
 * The messages of `lines` (numbered from `firstLineNumber`), in order. A line without the
 * separator stops the conversion: `messages` holds the lines before it and `error` says which.
 */
export function linesToMessages(
  lines: readonly Buffer[],
  firstLineNumber: number,
  shape: RecordShape,
): { messages: LineMessage[]; error: MissingKeySeparatorError | undefined } {
  const messages: LineMessage[] = []
  const sep = shape.keySeparator
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    let message: LineMessage
    if (sep === undefined) message = { key: null, value: line }
    else {
      const at = line.indexOf(sep)
      if (at < 0) return { messages, error: new MissingKeySeparatorError(firstLineNumber + i, sep.toString()) }
      message = { key: line.subarray(0, at), value: line.subarray(at + sep.length) }
    }
    if (shape.headers !== undefined) message.headers = shape.headers
    if (shape.partition !== undefined) message.partition = shape.partition
    messages.push(message)
  }
  return { messages, error: undefined }
}

/** Bytes a group of messages carries (for the summary's MB/s). */
export function messageBytes(messages: readonly LineMessage[]): number {
  let n = 0
  for (const m of messages) n += m.value.length + (m.key?.length ?? 0)
  return n
}
