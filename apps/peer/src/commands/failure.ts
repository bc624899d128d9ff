/**
 * Turns an SDK failure into the one line a user reads. The SDK's errors already name their
 * topic and partition; an unknown topic additionally says how to create it (auto-create is off).
 */

/** The error and its causes, outermost first (a retried failure wraps the last error as `cause`). */
function chain(err: unknown): Error[] {
  const out: Error[] = []
  let current: unknown = err
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    out.push(current)
    current = current.cause
  }
  return out
}

export function isUnknownTopic(err: unknown): boolean {
  return chain(err).some((e) => e.name === 'UnknownTopicOrPartitionError')
}

/** Raised by a command for a failure it explains itself; cli.ts prints the message and exits 1. */
export class CommandFailedError extends Error {
  static override name = 'CommandFailedError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'CommandFailedError'
  }
}

/** A failure about `topic`, worded for the command line. */
export function topicFailure(err: unknown, topic: string): Error {
  if (err instanceof CommandFailedError) return err
  if (isUnknownTopic(err)) {
    return new CommandFailedError(
      `topic '${topic}' does not exist; create it with \`tributary topics create ${topic}\``,
      { cause: err },
    )
  }
  return err instanceof Error ? err : new CommandFailedError(String(err))
}

/**
 * Checks that `topic` exists (and has `partition`, when one is named) before a command starts
 * moving records, so the user reads a sentence rather than a retried wire error. Returns the
 * topic's partition count.
 */
export async function checkTopic(
  admin: {
    fetchTopicMetadata(o: {
      topics: string[]
      signal?: AbortSignal
    }): Promise<{ topics: Array<{ partitions: unknown[] }> }>
  },
  topic: string,
  partition: number | undefined,
  signal: AbortSignal,
): Promise<number> {
  let count: number
  try {
    const meta = await admin.fetchTopicMetadata({ topics: [topic], signal })
    count = meta.topics[0]?.partitions.length ?? 0
  } catch (err) {
    throw topicFailure(err, topic)
  }
  if (count === 0) throw topicFailure(new CommandFailedError(`topic '${topic}' has no partitions`), topic)
  if (partition !== undefined && partition >= count) {
    throw new CommandFailedError(
      `topic '${topic}' has ${count} partition${count === 1 ? '' : 's'} (0-${count - 1}); there is no partition ${partition}`,
    )
  }
  return count
}
