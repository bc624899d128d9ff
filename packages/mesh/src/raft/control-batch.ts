import { encodeRecordBatchSync } from '@tributary/wire'
import { LeaderChangeMessage } from '@tributary/wire/pb/raft'

/** Kafka's control record types (`ControlRecordType`): the key is int16 version + int16 type. */
export const CONTROL_TYPE_LEADER_CHANGE = 2
const CONTROL_KEY_VERSION = 0

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
  const key = new Uint8Array(4)
  const view = new DataView(key.buffer)
  view.setInt16(0, CONTROL_KEY_VERSION)
  view.setInt16(2, CONTROL_TYPE_LEADER_CHANGE)
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
