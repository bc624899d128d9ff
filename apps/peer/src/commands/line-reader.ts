/**
 * Lines from a byte stream (stdin), handed out in groups: every line complete in what has
 * arrived so far, at most `maxLines` per group. A group is what `produce` sends in one call, so
 * a pipe of 10,000 lines goes out in a few sends while a person typing sees each line sent at
 * once. Lines are bytes (values need not be UTF-8); a trailing `\r` is dropped; a last line
 * without `\n` still counts. A line longer than `maxLineBytes` is an error, raised only after
 * the lines before it were handed out.
 */
import type { Readable } from 'node:stream'

export class LineTooLongError extends Error {
  static override name = 'LineTooLongError'
  constructor(
    readonly lineNumber: number,
    readonly maxLineBytes: number,
  ) {
    super(`line ${lineNumber} is longer than ${maxLineBytes.toLocaleString('en-US')} bytes (--max-line-bytes)`)
    this.name = 'LineTooLongError'
  }
}

export interface LineGroupOptions {
  maxLines: number
  maxLineBytes: number
}

const NL = 0x0a
const CR = 0x0d

function trimCr(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, line.length - 1) : line
}

export async function* lineGroups(input: Readable, options: LineGroupOptions): AsyncGenerator<Buffer[]> {
  // Bytes of the current, unfinished line: pieces, so a long line is not copied per chunk.
  let partial: Buffer[] = []
  let partialBytes = 0
  let lineNumber = 0
  let group: Buffer[] = []
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    let start = 0
    for (;;) {
      const nl = bytes.indexOf(NL, start)
      const end = nl < 0 ? bytes.length : nl
      if (partialBytes + (end - start) > options.maxLineBytes) {
        if (group.length > 0) yield group
        throw new LineTooLongError(lineNumber + 1, options.maxLineBytes)
      }
      if (nl < 0) {
        if (end > start) {
          partial.push(bytes.subarray(start))
          partialBytes += end - start
        }
        break
      }
      const piece = bytes.subarray(start, nl)
      const line = partial.length === 0 ? piece : Buffer.concat([...partial, piece])
      partial = []
      partialBytes = 0
      lineNumber++
      group.push(trimCr(line))
      if (group.length >= options.maxLines) {
        yield group
        group = []
      }
      start = nl + 1
    }
    if (group.length > 0) {
      yield group
      group = []
    }
  }
  if (partialBytes > 0) yield [trimCr(Buffer.concat(partial))]
}
