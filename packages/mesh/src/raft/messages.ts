/**
 * The Raft messages as the replication core uses them (numbers, `undefined` for "none"), their
 * protobuf encoding (`@tributary/wire/pb/raft`, int64 as bigint on the wire), and validation.
 * Everything that arrives from the network passes a `validate*` (the `decode*` functions call
 * them) before anything acts on it: ids non-empty and bounded, offsets and epochs safe
 * integers in range. Invalid input is an InvalidRequestError and changes nothing.
 */
import { InvalidRequestError } from '@tributary/wire'
import * as pb from '@tributary/wire/pb/raft'

/** Peer ids are ~52 characters; anything near this bound is garbage. */
export const MAX_ID_LENGTH = 256
/** Partition routing keys (`<topicId>-<partition>`). */
export const MAX_PARTITION_LENGTH = 512
export const MAX_ERROR_MESSAGE_LENGTH = 4096
export const MAX_SUCCESSORS = 256
/** Largest records payload accepted in one replica fetch response. */
export const MAX_FETCH_RECORDS_BYTES = 64 * 1024 * 1024
export const MAX_FETCH_WAIT_MS = 60_000

export interface VoteRequest {
  partition: string
  candidateId: string
  candidateEpoch: number
  voterId: string
  /** Epoch of the candidate's last batch (-1: empty log). */
  lastOffsetEpoch: number
  /** The candidate's log end offset. */
  lastOffset: number
  /** KIP-996: only asks whether the voter would grant a vote in `candidateEpoch`; nothing changes. */
  preVote?: boolean
}

export interface VoteResponse {
  errorCode: number
  errorMessage: string
  voteGranted: boolean
  leaderEpoch: number
  leaderId: string | undefined
}

export interface BeginQuorumEpochRequest {
  partition: string
  leaderId: string
  leaderEpoch: number
}

/** A leader handing over to a caught-up voter: stand for election now (Raft §3.10). */
export interface TimeoutNowRequest {
  partition: string
  leaderId: string
  leaderEpoch: number
}

export interface EndQuorumEpochRequest {
  partition: string
  leaderId: string
  leaderEpoch: number
  preferredSuccessors: string[]
}

/** BeginQuorumEpoch and EndQuorumEpoch answer alike: an error code and what the responder knows. */
export interface QuorumEpochResponse {
  errorCode: number
  errorMessage: string
  leaderEpoch: number
  leaderId: string | undefined
}
export type BeginQuorumEpochResponse = QuorumEpochResponse
export type EndQuorumEpochResponse = QuorumEpochResponse
export type TimeoutNowResponse = QuorumEpochResponse

export interface ReplicaFetchRequest {
  partition: string
  replicaId: string
  currentLeaderEpoch: number
  /** The fetcher's log end offset. */
  fetchOffset: number
  /** Epoch of the fetcher's last batch (-1: empty log). */
  lastFetchedEpoch: number
  maxWaitMs: number
  maxBytes: number
}

export interface DivergingEpoch {
  epoch: number
  endOffset: number
}

export interface ReplicaFetchResponse {
  errorCode: number
  errorMessage: string
  leaderId: string | undefined
  leaderEpoch: number
  highWatermark: number
  logStartOffset: number
  records: Uint8Array
  divergingEpoch: DivergingEpoch | undefined
}

// ---- validation ----

function invalid(what: string): never {
  throw new InvalidRequestError(`invalid raft message: ${what}`)
}

function checkString(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    invalid(`${field} must be a non-empty string of at most ${max} characters`)
  }
  return value
}

function checkId(value: unknown, field: string): string {
  return checkString(value, field, MAX_ID_LENGTH)
}

function checkOptionalId(value: unknown, field: string): string | undefined {
  if (value === undefined || value === '') return undefined
  return checkId(value, field)
}

function checkInt(value: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    invalid(`${field} must be an integer in [${min}, ${max}], got ${String(value)}`)
  }
  return value
}

function checkErrorMessage(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_ERROR_MESSAGE_LENGTH) invalid('error message is too long')
  return value
}

export function validateVoteRequest(r: VoteRequest): VoteRequest {
  return {
    partition: checkString(r.partition, 'partition', MAX_PARTITION_LENGTH),
    candidateId: checkId(r.candidateId, 'candidateId'),
    candidateEpoch: checkInt(r.candidateEpoch, 'candidateEpoch', 0),
    voterId: checkId(r.voterId, 'voterId'),
    lastOffsetEpoch: checkInt(r.lastOffsetEpoch, 'lastOffsetEpoch', -1),
    lastOffset: checkInt(r.lastOffset, 'lastOffset', 0),
    preVote: checkBoolean(r.preVote ?? false, 'preVote'),
  }
}

function checkBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') invalid(`${field} must be a boolean`)
  return value
}

export function validateVoteResponse(r: VoteResponse): VoteResponse {
  if (typeof r.voteGranted !== 'boolean') invalid('voteGranted must be a boolean')
  return {
    errorCode: checkInt(r.errorCode, 'errorCode', -(2 ** 31), 2 ** 31 - 1),
    errorMessage: checkErrorMessage(r.errorMessage),
    voteGranted: r.voteGranted,
    leaderEpoch: checkInt(r.leaderEpoch, 'leaderEpoch', 0),
    leaderId: checkOptionalId(r.leaderId, 'leaderId'),
  }
}

export function validateBeginQuorumEpochRequest(r: BeginQuorumEpochRequest): BeginQuorumEpochRequest {
  return {
    partition: checkString(r.partition, 'partition', MAX_PARTITION_LENGTH),
    leaderId: checkId(r.leaderId, 'leaderId'),
    leaderEpoch: checkInt(r.leaderEpoch, 'leaderEpoch', 0),
  }
}

export function validateTimeoutNowRequest(r: TimeoutNowRequest): TimeoutNowRequest {
  return {
    partition: checkString(r.partition, 'partition', MAX_PARTITION_LENGTH),
    leaderId: checkId(r.leaderId, 'leaderId'),
    leaderEpoch: checkInt(r.leaderEpoch, 'leaderEpoch', 0),
  }
}

export function validateEndQuorumEpochRequest(r: EndQuorumEpochRequest): EndQuorumEpochRequest {
  if (!Array.isArray(r.preferredSuccessors) || r.preferredSuccessors.length > MAX_SUCCESSORS) {
    invalid(`preferredSuccessors must be a list of at most ${MAX_SUCCESSORS} ids`)
  }
  return {
    partition: checkString(r.partition, 'partition', MAX_PARTITION_LENGTH),
    leaderId: checkId(r.leaderId, 'leaderId'),
    leaderEpoch: checkInt(r.leaderEpoch, 'leaderEpoch', 0),
    preferredSuccessors: r.preferredSuccessors.map((id) => checkId(id, 'preferredSuccessors[]')),
  }
}

export function validateQuorumEpochResponse(r: QuorumEpochResponse): QuorumEpochResponse {
  return {
    errorCode: checkInt(r.errorCode, 'errorCode', -(2 ** 31), 2 ** 31 - 1),
    errorMessage: checkErrorMessage(r.errorMessage),
    leaderEpoch: checkInt(r.leaderEpoch, 'leaderEpoch', 0),
    leaderId: checkOptionalId(r.leaderId, 'leaderId'),
  }
}

export function validateReplicaFetchRequest(r: ReplicaFetchRequest): ReplicaFetchRequest {
  return {
    partition: checkString(r.partition, 'partition', MAX_PARTITION_LENGTH),
    replicaId: checkId(r.replicaId, 'replicaId'),
    currentLeaderEpoch: checkInt(r.currentLeaderEpoch, 'currentLeaderEpoch', 0),
    fetchOffset: checkInt(r.fetchOffset, 'fetchOffset', 0),
    lastFetchedEpoch: checkInt(r.lastFetchedEpoch, 'lastFetchedEpoch', -1),
    maxWaitMs: checkInt(r.maxWaitMs, 'maxWaitMs', 0, MAX_FETCH_WAIT_MS),
    maxBytes: checkInt(r.maxBytes, 'maxBytes', 0, 2 ** 31 - 1),
  }
}

export function validateReplicaFetchResponse(r: ReplicaFetchResponse): ReplicaFetchResponse {
  if (!(r.records instanceof Uint8Array) || r.records.length > MAX_FETCH_RECORDS_BYTES) {
    invalid(`records must be at most ${MAX_FETCH_RECORDS_BYTES} bytes`)
  }
  const d = r.divergingEpoch
  return {
    errorCode: checkInt(r.errorCode, 'errorCode', -(2 ** 31), 2 ** 31 - 1),
    errorMessage: checkErrorMessage(r.errorMessage),
    leaderId: checkOptionalId(r.leaderId, 'leaderId'),
    leaderEpoch: checkInt(r.leaderEpoch, 'leaderEpoch', 0),
    highWatermark: checkInt(r.highWatermark, 'highWatermark', 0),
    logStartOffset: checkInt(r.logStartOffset, 'logStartOffset', 0),
    records: r.records,
    divergingEpoch:
      d === undefined
        ? undefined
        : {
            epoch: checkInt(d.epoch, 'divergingEpoch.epoch', -1),
            endOffset: checkInt(d.endOffset, 'divergingEpoch.endOffset', -1),
          },
  }
}

// ---- protobuf ----

/** A wire int64 as a number; out of the safe range is invalid, never rounded. */
function num(value: bigint, field: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    invalid(`${field} is out of range`)
  }
  return Number(value)
}

function decodeWith<T>(name: string, decode: () => T): T {
  try {
    return decode()
  } catch (err) {
    throw new InvalidRequestError(`malformed raft ${name}`, { cause: err })
  }
}

export function encodeVoteRequest(r: VoteRequest): Uint8Array {
  return pb.VoteRequest.encode({
    ...r,
    candidateEpoch: BigInt(r.candidateEpoch),
    lastOffsetEpoch: BigInt(r.lastOffsetEpoch),
    lastOffset: BigInt(r.lastOffset),
  })
}

export function decodeVoteRequest(bytes: Uint8Array): VoteRequest {
  const m = decodeWith('vote request', () => pb.VoteRequest.decode(bytes))
  return validateVoteRequest({
    partition: m.partition,
    candidateId: m.candidateId,
    candidateEpoch: num(m.candidateEpoch, 'candidateEpoch'),
    voterId: m.voterId,
    lastOffsetEpoch: num(m.lastOffsetEpoch, 'lastOffsetEpoch'),
    lastOffset: num(m.lastOffset, 'lastOffset'),
    preVote: m.preVote,
  })
}

export function encodeVoteResponse(r: VoteResponse): Uint8Array {
  return pb.VoteResponse.encode({ ...r, leaderEpoch: BigInt(r.leaderEpoch), leaderId: r.leaderId ?? '' })
}

export function decodeVoteResponse(bytes: Uint8Array): VoteResponse {
  const m = decodeWith('vote response', () => pb.VoteResponse.decode(bytes))
  return validateVoteResponse({ ...m, leaderEpoch: num(m.leaderEpoch, 'leaderEpoch'), leaderId: m.leaderId })
}

export function encodeBeginQuorumEpochRequest(r: BeginQuorumEpochRequest): Uint8Array {
  return pb.BeginQuorumEpochRequest.encode({ ...r, leaderEpoch: BigInt(r.leaderEpoch) })
}

export function decodeBeginQuorumEpochRequest(bytes: Uint8Array): BeginQuorumEpochRequest {
  const m = decodeWith('begin-quorum-epoch request', () => pb.BeginQuorumEpochRequest.decode(bytes))
  return validateBeginQuorumEpochRequest({ ...m, leaderEpoch: num(m.leaderEpoch, 'leaderEpoch') })
}

export function encodeTimeoutNowRequest(r: TimeoutNowRequest): Uint8Array {
  return pb.TimeoutNowRequest.encode({ ...r, leaderEpoch: BigInt(r.leaderEpoch) })
}

export function decodeTimeoutNowRequest(bytes: Uint8Array): TimeoutNowRequest {
  const m = decodeWith('timeout-now request', () => pb.TimeoutNowRequest.decode(bytes))
  return validateTimeoutNowRequest({ ...m, leaderEpoch: num(m.leaderEpoch, 'leaderEpoch') })
}

export function encodeEndQuorumEpochRequest(r: EndQuorumEpochRequest): Uint8Array {
  return pb.EndQuorumEpochRequest.encode({ ...r, leaderEpoch: BigInt(r.leaderEpoch) })
}

export function decodeEndQuorumEpochRequest(bytes: Uint8Array): EndQuorumEpochRequest {
  const m = decodeWith('end-quorum-epoch request', () =>
    pb.EndQuorumEpochRequest.decode(bytes, { limits: { preferredSuccessors: MAX_SUCCESSORS } }),
  )
  return validateEndQuorumEpochRequest({ ...m, leaderEpoch: num(m.leaderEpoch, 'leaderEpoch') })
}

/** BeginQuorumEpoch and EndQuorumEpoch responses share a layout. */
export function encodeQuorumEpochResponse(r: QuorumEpochResponse): Uint8Array {
  return pb.BeginQuorumEpochResponse.encode({ ...r, leaderEpoch: BigInt(r.leaderEpoch), leaderId: r.leaderId ?? '' })
}

export function decodeQuorumEpochResponse(bytes: Uint8Array): QuorumEpochResponse {
  const m = decodeWith('quorum-epoch response', () => pb.BeginQuorumEpochResponse.decode(bytes))
  return validateQuorumEpochResponse({ ...m, leaderEpoch: num(m.leaderEpoch, 'leaderEpoch') })
}

export function encodeReplicaFetchRequest(r: ReplicaFetchRequest): Uint8Array {
  return pb.ReplicaFetchRequest.encode({
    ...r,
    currentLeaderEpoch: BigInt(r.currentLeaderEpoch),
    fetchOffset: BigInt(r.fetchOffset),
    lastFetchedEpoch: BigInt(r.lastFetchedEpoch),
  })
}

export function decodeReplicaFetchRequest(bytes: Uint8Array): ReplicaFetchRequest {
  const m = decodeWith('replica fetch request', () => pb.ReplicaFetchRequest.decode(bytes))
  return validateReplicaFetchRequest({
    ...m,
    currentLeaderEpoch: num(m.currentLeaderEpoch, 'currentLeaderEpoch'),
    fetchOffset: num(m.fetchOffset, 'fetchOffset'),
    lastFetchedEpoch: num(m.lastFetchedEpoch, 'lastFetchedEpoch'),
  })
}

export function encodeReplicaFetchResponse(r: ReplicaFetchResponse): Uint8Array {
  const d = r.divergingEpoch
  return pb.ReplicaFetchResponse.encode({
    errorCode: r.errorCode,
    errorMessage: r.errorMessage,
    leaderId: r.leaderId ?? '',
    leaderEpoch: BigInt(r.leaderEpoch),
    highWatermark: BigInt(r.highWatermark),
    logStartOffset: BigInt(r.logStartOffset),
    records: r.records as Uint8Array<ArrayBuffer>,
    divergingEpoch: d === undefined ? undefined : { epoch: BigInt(d.epoch), endOffset: BigInt(d.endOffset) },
  })
}

export function decodeReplicaFetchResponse(bytes: Uint8Array): ReplicaFetchResponse {
  const m = decodeWith('replica fetch response', () => pb.ReplicaFetchResponse.decode(bytes))
  const d = m.divergingEpoch
  return validateReplicaFetchResponse({
    errorCode: m.errorCode,
    errorMessage: m.errorMessage,
    leaderId: m.leaderId,
    leaderEpoch: num(m.leaderEpoch, 'leaderEpoch'),
    highWatermark: num(m.highWatermark, 'highWatermark'),
    logStartOffset: num(m.logStartOffset, 'logStartOffset'),
    records: m.records,
    divergingEpoch:
      d === undefined
        ? undefined
        : { epoch: num(d.epoch, 'divergingEpoch.epoch'), endOffset: num(d.endOffset, 'divergingEpoch.endOffset') },
  })
}
