/**
 * What the scenario test asks of the mesh itself, outside the group: which peer leads a
 * `__consumer_offsets` partition (the group's coordinator), by the peers' own metrics; and which
 * offsets of a topic hold records, as a consumer outside any group reads them (the others are
 * Raft's control batches, which consumers never see).
 */
import type { Tributary } from '@tributary/client'
import { CONSUMER_OFFSETS_TOPIC } from '@tributary/groups'
import { type PeerProcess, waitFor } from '../helpers/peer-process.ts'

/** The one peer among `peers` whose metrics say it leads the partition (only a leader reports in-sync voters). */
export async function offsetsLeader(peers: PeerProcess[], partition: number): Promise<PeerProcess | undefined> {
  const series = new RegExp(
    `tributary_partition_in_sync_voters\\{(?=[^}]*topic="${CONSUMER_OFFSETS_TOPIC}")(?=[^}]*partition="${partition}")`,
  )
  const leaders: PeerProcess[] = []
  for (const peer of peers) {
    const res = await fetch(`http://127.0.0.1:${peer.httpPort}/metrics`, { signal: AbortSignal.timeout(5_000) })
    if (series.test(await res.text())) leaders.push(peer)
  }
  return leaders.length === 1 ? leaders[0] : undefined
}

/** Per partition of `topic`, the offsets below `ends` that hold records. */
export async function readOffsets(
  client: Tributary,
  topic: string,
  ends: ReadonlyMap<number, number>,
): Promise<Map<number, number[]>> {
  const offsets = new Map<number, number[]>([...ends.keys()].map((p) => [p, []]))
  const reader = client.consumer({ maxWaitTimeInMs: 200 })
  try {
    await reader.subscribe({ topics: [topic], fromBeginning: true })
    await reader.run({
      eachMessage: async ({ partition, message }) => {
        const offset = Number(message.offset)
        if (offset < (ends.get(partition) ?? 0)) offsets.get(partition)?.push(offset)
      },
    })
    await waitFor(
      () => {
        const positions = reader.positions()
        return (
          positions.length === ends.size &&
          positions.every((p) => p.offset !== undefined && Number(p.offset) >= (ends.get(p.partition) ?? 0))
        )
      },
      `a plain consumer to read ${topic} to its end`,
      30_000,
    )
    return offsets
  } finally {
    await reader.disconnect()
  }
}
