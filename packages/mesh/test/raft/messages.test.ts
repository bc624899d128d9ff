import { InvalidRequestError } from '@tributary/wire'
import * as pb from '@tributary/wire/pb/raft'
import { describe, expect, it } from 'vitest'
import {
  decodeBeginQuorumEpochRequest,
  decodeEndQuorumEpochRequest,
  decodeQuorumEpochResponse,
  decodeReplicaFetchRequest,
  decodeReplicaFetchResponse,
  decodeTimeoutNowRequest,
  decodeVoteRequest,
  decodeVoteResponse,
  encodeBeginQuorumEpochRequest,
  encodeEndQuorumEpochRequest,
  encodeQuorumEpochResponse,
  encodeReplicaFetchRequest,
  encodeReplicaFetchResponse,
  encodeTimeoutNowRequest,
  encodeVoteRequest,
  encodeVoteResponse,
  type ReplicaFetchRequest,
  type VoteRequest,
} from '../../src/raft/index.js'
import { validateReplicaFetchResponse, validateVoteRequest } from '../../src/raft/messages.js'

const vote: VoteRequest = {
  partition: 't-0',
  candidateId: 'peerA',
  candidateEpoch: 7,
  voterId: 'peerB',
  lastOffsetEpoch: -1,
  lastOffset: 2 ** 40,
  preVote: false,
}

const fetch: ReplicaFetchRequest = {
  partition: 't-0',
  replicaId: 'peerB',
  currentLeaderEpoch: 3,
  fetchOffset: 12,
  lastFetchedEpoch: 2,
  maxWaitMs: 500,
  maxBytes: 1 << 20,
}

describe('raft > messages', () => {
  it('round-trips every message through protobuf', () => {
    expect(decodeVoteRequest(encodeVoteRequest(vote))).toEqual(vote)
    expect(decodeVoteRequest(encodeVoteRequest({ ...vote, preVote: true }))).toEqual({ ...vote, preVote: true })
    const voteResponse = { errorCode: 0, errorMessage: '', voteGranted: true, leaderEpoch: 7, leaderId: undefined }
    expect(decodeVoteResponse(encodeVoteResponse(voteResponse))).toEqual(voteResponse)
    const begin = { partition: 't-0', leaderId: 'peerA', leaderEpoch: 4 }
    expect(decodeBeginQuorumEpochRequest(encodeBeginQuorumEpochRequest(begin))).toEqual(begin)
    const end = { ...begin, preferredSuccessors: ['peerC', 'peerB'] }
    expect(decodeEndQuorumEpochRequest(encodeEndQuorumEpochRequest(end))).toEqual(end)
    expect(decodeTimeoutNowRequest(encodeTimeoutNowRequest(begin))).toEqual(begin)
    const epochResponse = { errorCode: 74, errorMessage: 'fenced', leaderEpoch: 5, leaderId: 'peerC' }
    expect(decodeQuorumEpochResponse(encodeQuorumEpochResponse(epochResponse))).toEqual(epochResponse)
    expect(decodeReplicaFetchRequest(encodeReplicaFetchRequest(fetch))).toEqual(fetch)
    const fetched = {
      errorCode: 0,
      errorMessage: '',
      leaderId: 'peerA',
      leaderEpoch: 3,
      highWatermark: 10,
      logStartOffset: 0,
      records: new Uint8Array([1, 2, 3]),
      divergingEpoch: { epoch: -1, endOffset: -1 },
    }
    expect(decodeReplicaFetchResponse(encodeReplicaFetchResponse(fetched))).toEqual(fetched)
    const plain = { ...fetched, divergingEpoch: undefined }
    expect(decodeReplicaFetchResponse(encodeReplicaFetchResponse(plain))).toEqual(plain)
  })

  it.each([
    ['an empty candidate id', { candidateId: '' }],
    ['an over-long candidate id', { candidateId: 'x'.repeat(257) }],
    ['an empty partition', { partition: '' }],
    ['a negative epoch', { candidateEpoch: -1 }],
    ['an epoch below -1 for the last batch', { lastOffsetEpoch: -2 }],
    ['a fractional offset', { lastOffset: 1.5 }],
    ['an unsafe offset', { lastOffset: 2 ** 60 }],
    ['a string where a number belongs', { candidateEpoch: '3' as unknown as number }],
  ])('refuses a vote request with %s', (_, patch) => {
    expect(() => validateVoteRequest({ ...vote, ...patch })).toThrow(InvalidRequestError)
  })

  it('refuses wire integers outside the safe range instead of rounding them', () => {
    const bytes = pb.ReplicaFetchRequest.encode({
      ...fetch,
      currentLeaderEpoch: 3n,
      fetchOffset: 2n ** 60n,
      lastFetchedEpoch: 2n,
    })
    expect(() => decodeReplicaFetchRequest(bytes)).toThrow(InvalidRequestError)
  })

  it('refuses garbage bytes with a typed error', () => {
    expect(() => decodeVoteRequest(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).toThrow(InvalidRequestError)
    expect(() => decodeReplicaFetchResponse(new Uint8Array([0x0a, 0x10, 1]))).toThrow(InvalidRequestError)
  })

  it('bounds the successors list and validates each id', () => {
    const end = { partition: 't-0', leaderId: 'peerA', leaderEpoch: 4n }
    const many = pb.EndQuorumEpochRequest.encode({ ...end, preferredSuccessors: Array(300).fill('p') })
    expect(() => decodeEndQuorumEpochRequest(many)).toThrow(InvalidRequestError)
    const blank = pb.EndQuorumEpochRequest.encode({ ...end, preferredSuccessors: [''] })
    expect(() => decodeEndQuorumEpochRequest(blank)).toThrow(InvalidRequestError)
  })

  it('refuses a fetch response with a negative high watermark or a bad diverging epoch', () => {
    const base = {
      errorCode: 0,
      errorMessage: '',
      leaderId: 'a',
      leaderEpoch: 1,
      highWatermark: 0,
      logStartOffset: 0,
      records: new Uint8Array(0),
      divergingEpoch: undefined,
    }
    expect(() => validateReplicaFetchResponse({ ...base, highWatermark: -1 })).toThrow(InvalidRequestError)
    expect(() => validateReplicaFetchResponse({ ...base, divergingEpoch: { epoch: -2, endOffset: 0 } })).toThrow(
      InvalidRequestError,
    )
    expect(() => validateReplicaFetchResponse({ ...base, errorMessage: 'x'.repeat(5000) })).toThrow(InvalidRequestError)
  })
})
