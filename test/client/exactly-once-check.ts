/**
 * Reads a topic back with the SDK consumer and judges it against what was sent: every
 * acknowledged record exactly once, at the partition and offset its acknowledgement named, each
 * key's records in send order; a record whose send failed at most once; nothing else.
 */
import type { Tributary } from '@tributary/client'
import { waitFor } from '../helpers/peer-process.ts'
import type { SentRecord } from './keyed-writers.ts'

export interface ConsumedRecord {
  partition: number
  offset: number
  key: string | null
  value: string
}

/** Most examples kept per kind of violation (the count is always exact). */
const EXAMPLES = 10

const dec = new TextDecoder()

/**
 * Everything in `topic` from the beginning up to and including `until` (partition → an offset
 * known to be there), as delivered: per partition in delivery order.
 */
export async function readBack(
  client: Tributary,
  topic: string,
  until: ReadonlyMap<number, number>,
  timeoutMs = 30_000,
): Promise<ConsumedRecord[]> {
  const consumer = client.consumer({ maxWaitTimeInMs: 200 })
  const read: ConsumedRecord[] = []
  const reached = new Map<number, number>()
  try {
    await consumer.subscribe({ topic, fromBeginning: true })
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        const offset = Number(message.offset)
        read.push({
          partition,
          offset,
          key: message.key === null ? null : dec.decode(message.key),
          value: message.value === null ? '' : dec.decode(message.value),
        })
        reached.set(partition, Math.max(reached.get(partition) ?? -1, offset))
      },
    })
    await waitFor(
      () => [...until].every(([p, offset]) => (reached.get(p) ?? -1) >= offset),
      `the consumer to reach ${[...until].map(([p, o]) => `${topic}-${p}@${o}`).join(', ')}`,
      timeoutMs,
    )
  } finally {
    await consumer.disconnect()
  }
  return read
}

export interface Verdict {
  /** Each list is empty when the rule holds; otherwise a count and the first examples. */
  violations: {
    duplicates: string[]
    notSent: string[]
    lostAcknowledged: string[]
    misplaced: string[]
    deliveryOrder: string[]
    keyOrder: string[]
  }
  acknowledged: number
  failedPresent: number
  failedAbsent: number
}

class Violations {
  private readonly lists = new Map<string, { count: number; examples: string[] }>()
  add(kind: string, example: string): void {
    const list = this.lists.get(kind) ?? { count: 0, examples: [] }
    list.count++
    if (list.examples.length < EXAMPLES) list.examples.push(example)
    this.lists.set(kind, list)
  }
  get(kind: string): string[] {
    const list = this.lists.get(kind)
    return list === undefined ? [] : [`${list.count} in all`, ...list.examples]
  }
}

export function judge(sent: readonly SentRecord[], consumed: readonly ConsumedRecord[]): Verdict {
  const v = new Violations()
  const sentByValue = new Map<string, SentRecord>()
  for (const r of sent) {
    if (sentByValue.has(r.value)) throw new Error(`the workload sent ${r.value} twice; values must be unique`)
    sentByValue.set(r.value, r)
  }

  const seen = new Map<string, ConsumedRecord[]>()
  const lastOffset = new Map<number, number>()
  for (const c of consumed) {
    const before = lastOffset.get(c.partition) ?? -1
    if (c.offset <= before) v.add('deliveryOrder', `partition ${c.partition}: offset ${c.offset} after ${before}`)
    lastOffset.set(c.partition, c.offset)
    const list = seen.get(c.value) ?? []
    list.push(c)
    seen.set(c.value, list)
  }

  for (const [value, found] of seen) {
    const where = found.map((c) => `${c.partition}@${c.offset}`).join(', ')
    if (found.length > 1) v.add('duplicates', `${value} ×${found.length} at ${where}`)
    const record = sentByValue.get(value)
    if (record === undefined) {
      v.add('notSent', `${value} at ${where}`)
      continue
    }
    if (found.some((c) => c.key !== record.key)) v.add('misplaced', `${value} carries another key at ${where}`)
    if (found.some((c) => c.partition !== record.partition))
      v.add('misplaced', `${value} belongs in partition ${record.partition}, found at ${where}`)
  }

  let acknowledged = 0
  let failedPresent = 0
  let failedAbsent = 0
  for (const r of sent) {
    const found = seen.get(r.value) ?? []
    if (r.error !== undefined) {
      if (found.length === 0) failedAbsent++
      else failedPresent++
      continue
    }
    if (r.offset === undefined)
      throw new Error(`${r.value} is neither acknowledged nor failed: the workload is still running`)
    acknowledged++
    if (found.length === 0) v.add('lostAcknowledged', `${r.value} (acknowledged at ${r.partition}@${r.offset})`)
    else if (found[0]!.offset !== r.offset || found[0]!.partition !== r.partition) {
      v.add(
        'misplaced',
        `${r.value} acknowledged at ${r.partition}@${r.offset}, found at ${found[0]!.partition}@${found[0]!.offset}`,
      )
    }
  }

  // Each key's acknowledged records (per partition: a key set by hand may go anywhere), in send
  // order, hold increasing offsets and are delivered in that order.
  const stream = (r: { key: string; partition: number }) => `${r.key} in partition ${r.partition}`
  const byKey = new Map<string, SentRecord[]>()
  for (const r of sent) if (r.error === undefined) byKey.set(stream(r), [...(byKey.get(stream(r)) ?? []), r])
  const deliveredByKey = new Map<string, string[]>()
  for (const c of consumed) {
    const r = sentByValue.get(c.value)
    if (r === undefined || r.error !== undefined) continue
    deliveredByKey.set(stream(r), [...(deliveredByKey.get(stream(r)) ?? []), c.value])
  }
  for (const [key, records] of byKey) {
    for (let i = 1; i < records.length; i++) {
      if (records[i]!.offset! <= records[i - 1]!.offset!) {
        v.add(
          'keyOrder',
          `${records[i]!.value} acknowledged at ${records[i]!.offset}, not after ${records[i - 1]!.value} at ${records[i - 1]!.offset}`,
        )
      }
    }
    const delivered = deliveredByKey.get(key) ?? []
    const expected = records.map((r) => r.value)
    if (delivered.join('\n') !== expected.join('\n')) {
      const at = expected.findIndex((value, i) => delivered[i] !== value)
      v.add(
        'keyOrder',
        `${key}: delivered ${delivered[at] ?? 'nothing'} where ${expected[at] ?? 'nothing'} was sent (position ${at})`,
      )
    }
  }

  return {
    violations: {
      duplicates: v.get('duplicates'),
      notSent: v.get('notSent'),
      lostAcknowledged: v.get('lostAcknowledged'),
      misplaced: v.get('misplaced'),
      deliveryOrder: v.get('deliveryOrder'),
      keyOrder: v.get('keyOrder'),
    },
    acknowledged,
    failedPresent,
    failedAbsent,
  }
}
