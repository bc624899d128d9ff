/**
 * Checks one replica's committed values against a producer's ledger: every acknowledged value
 * present, exactly once unless an attempt of it was ambiguous, nothing that was never sent,
 * and the producer's order kept (its batches went one at a time, so the sequence numbers in
 * the log never go back).
 */
import type { PartitionProducer } from './producer.ts'

export interface LedgerCheck {
  problems: string[]
  /** Acknowledged values that appear more than once (each was retried after an ambiguous failure). */
  duplicated: number
  /** Values never acknowledged that made it into the log anyway (ambiguous attempts). */
  unacknowledgedPresent: number
}

/** `topic/partition/seq.i` → [seq, i] */
function position(value: string): [number, number] {
  const [seq, i] = value.slice(value.lastIndexOf('/') + 1).split('.')
  return [Number(seq), Number(i)]
}

export function checkAgainstLedger(
  values: readonly string[],
  producer: PartitionProducer,
  replica: string,
): LedgerCheck {
  const problems: string[] = []
  const where = `${producer.topic}-${producer.partition} on ${replica}`
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)

  const acked = producer.ackedValues()
  const ackedSet = new Set(acked)
  const missing: string[] = []
  const duplicatedUnambiguous: string[] = []
  const neverSent: string[] = []
  const unacknowledgedUnambiguous: string[] = []
  let duplicated = 0
  let unacknowledgedPresent = 0
  for (const v of acked) {
    const n = counts.get(v) ?? 0
    if (n === 0) missing.push(v)
    else if (n > 1) {
      duplicated++
      if (!producer.ambiguous.has(v)) duplicatedUnambiguous.push(`${v} (${n} times)`)
    }
  }
  for (const [v, n] of counts) {
    if (ackedSet.has(v)) continue
    if (!producer.sent.has(v)) neverSent.push(v)
    else if (!producer.ambiguous.has(v)) unacknowledgedUnambiguous.push(`${v} (${n} times)`)
    else unacknowledgedPresent++
  }
  const summarize = (what: string, found: string[]): void => {
    if (found.length > 0) problems.push(`${where}: ${found.length} ${what}, first: ${found.slice(0, 5).join(', ')}`)
  }
  summarize('acknowledged values missing', missing)
  summarize('values duplicated though never retried after an ambiguous failure', duplicatedUnambiguous)
  summarize('values that were never sent', neverSent)
  summarize('values present though every attempt surely failed', unacknowledgedUnambiguous)

  // Order: sequence numbers never go back; acknowledged values first appear in acknowledgement order.
  let previous: [number, number] = [-1, -1]
  for (const v of values) {
    const pos = position(v)
    const back = pos[0] < previous[0] || (pos[0] === previous[0] && pos[1] <= previous[1] && pos[1] !== 0)
    if (back) {
      problems.push(`${where}: ${v} follows ${previous.join('.')}: order broken`)
      break
    }
    previous = pos
  }
  const seen = new Set<string>()
  const firstAcked = values.filter((v) => ackedSet.has(v) && !seen.has(v) && seen.add(v))
  if (firstAcked.join('\n') !== acked.join('\n')) {
    const found = firstAcked.findIndex((v, i) => v !== acked[i])
    const at = found < 0 ? firstAcked.length : found
    problems.push(`${where}: acknowledged values out of order at index ${at}: ${firstAcked[at]} vs ${acked[at]}`)
  }
  return { problems, duplicated, unacknowledgedPresent }
}
