import { decodeRecordBatch, encodeRecordBatchSync, InvalidRequestError, iterateBatches } from '@tributary/wire'
import { LeaderChangeMessage, VotersRecord } from '@tributary/wire/pb/raft'
import { MAX_VOTERS, type VoterSet, validateVoterSet } from './voter-history.js'

/** Kafka's control record types (`ControlRecordType`): the key is int16 version + int16 type. */
export const CONTROL_TYPE_LEADER_CHANGE = 2
/** KIP-853's KRAFT_VOTERS: the record that changes a partition's voter set. */
export const CONTROL_TYPE_VOTERS = 6
const CONTROL_KEY_VERSION = 0

function controlKey(type: number): Uint8Array {
  const key = new Uint8Array(4)
  const view = new DataView(key.buffer)
  view.setInt16(0, CONTROL_KEY_VERSION)
  view.setInt16(2, type)
  return key
}

export interface LeaderChange {
  leaderId: string
  voters: readonly string[]
  grantingVoters: readonly string[]
}

/**
 * The control batch a new leader appends first in its epoch. Committing it commits everything
 * before it (a leader may not count replicas of older epochs' records on their own), and it
 * records who led and who voted. Consumers skip control batches, as Kafka's do.
 */
export function leaderChangeBatch(change: LeaderChange, timestamp: number): Uint8Array {
  const key = controlKey(CONTROL_TYPE_LEADER_CHANGE)
  const value = LeaderChangeMessage.encode({
    version: 0,
    leaderId: change.leaderId,
    voters: [...change.voters],
    grantingVoters: [...change.grantingVoters],
  })
  return encodeRecordBatchSync({ records: [{ key, value, timestamp }], control: true })
}

/** Reads the control type from a control record's key, or -1 when the key is not one. */
export function controlRecordType(key: Uint8Array | null): number {
  if (key === null || key.length < 4) return -1
  return new DataView(key.buffer, key.byteOffset, key.byteLength).getInt16(2)
}

/** The control batch that makes `voters` (preferred leader first) the partition's voter set. */
export function votersBatch(voters: readonly string[], timestamp: number): Uint8Array {
  const value = VotersRecord.encode({ version: 0, voters: [...voters] })
  return encodeRecordBatchSync({ records: [{ key: controlKey(CONTROL_TYPE_VOTERS), value, timestamp }], control: true })
}

/**
 * The voter sets carried by VotersRecords in `batches`, by offset. Offsets come from the batch
 * headers, or — for batches about to be appended as leader, which the log numbers from
 * `assignedFrom` in order — are counted from there. A malformed VotersRecord is an
 * InvalidRequestError: a log must never hold one.
 */
export async function voterSetsIn(batches: Uint8Array, assignedFrom?: number): Promise<VoterSet[]> {
  const sets: VoterSet[] = []
  let next = assignedFrom
  for (const { pos, header } of iterateBatches(batches)) {
    const base = next ?? header.baseOffset
    if (next !== undefined) next += header.lastOffsetDelta + 1
    if (!header.control) continue
    for (const record of (await decodeRecordBatch(batches, pos)).records) {
      if (controlRecordType(record.key) !== CONTROL_TYPE_VOTERS) continue
      let voters: string[]
      try {
        voters = VotersRecord.decode(record.value ?? new Uint8Array(0), { limits: { voters: MAX_VOTERS } }).voters
      } catch (err) {
        throw new InvalidRequestError('malformed VotersRecord', { cause: err })
      }
      sets.push(validateVoterSet({ offset: base + record.offsetDelta, voters }, 'VotersRecord'))
    }
  }
  return sets
}
