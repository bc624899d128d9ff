import { Rng } from '@tributary/test-utils/simulation'
import { ErrorCode, InvalidRequestError } from '@tributary/wire'
import * as pb from '@tributary/wire/pb/groups'
import { describe, expect, it } from 'vitest'
import {
  decodeGroupRequest,
  decodeGroupResponse,
  encodeGroupRequest,
  encodeGroupResponse,
  type GroupRequest,
  type GroupResponse,
  MAX_GROUP_MESSAGE_BYTES,
} from '../../src/index.ts'

const header = { groupId: 'billing', sender: 'a1b2c3', requestId: 7 }

const requests: GroupRequest[] = [
  {
    ...header,
    kind: 'join',
    memberId: '',
    groupInstanceId: 'tab-1',
    clientId: 'web',
    protocolType: 'consumer',
    protocols: ['cooperative-sticky', 'range'],
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 60_000,
    topics: ['orders', 'payments'],
    owned: [
      { topic: 'orders', partition: 0 },
      { topic: 'orders', partition: 3 },
      { topic: 'payments', partition: 1 },
    ],
    ownedGeneration: 4,
    reason: 'starting',
    startedAt: 1_700_000_000_000,
  },
  { ...header, kind: 'sync', memberId: 'web-a1b2c3', groupInstanceId: undefined, generation: 5 },
  { ...header, kind: 'heartbeat', memberId: 'web-a1b2c3', groupInstanceId: 'tab-1', generation: 5 },
  { ...header, kind: 'heartbeat', memberId: 'web-a1b2c3', groupInstanceId: undefined, generation: 5, maxWaitMs: 600 },
  { ...header, kind: 'leave', memberId: 'web-a1b2c3', groupInstanceId: undefined, reason: 'closing' },
  {
    ...header,
    kind: 'commit',
    memberId: 'web-a1b2c3',
    groupInstanceId: undefined,
    generation: 5,
    offsets: [
      { topic: 'orders', partition: 0, offset: 2 ** 40, leaderEpoch: 3, metadata: 'm' },
      { topic: 'orders', partition: 3, offset: 0, leaderEpoch: -1, metadata: '' },
    ],
  },
  { ...header, kind: 'commit', memberId: '', groupInstanceId: undefined, generation: -1, offsets: [] },
  { ...header, kind: 'fetch', partitions: [{ topic: 'orders', partition: 2 }] },
  { ...header, kind: 'fetch', partitions: undefined },
]

const responseHeader = {
  groupId: 'billing',
  recipient: 'a1b2c3',
  requestId: 7,
  errorCode: 0,
  errorMessage: '',
  sessionRenewed: true,
}

const responses: GroupResponse[] = [
  { ...responseHeader, kind: 'join', generation: 5, protocol: 'range', memberId: 'web-a1b2c3' },
  {
    ...responseHeader,
    kind: 'sync',
    generation: 5,
    protocol: 'cooperative-sticky',
    assignment: [{ topic: 'orders', partition: 0 }],
    revoke: [{ topic: 'orders', partition: 3 }],
  },
  { ...responseHeader, kind: 'heartbeat', errorCode: ErrorCode.REBALANCE_IN_PROGRESS, errorMessage: 'rebalancing' },
  { ...responseHeader, kind: 'leave', sessionRenewed: false },
  {
    ...responseHeader,
    kind: 'commit',
    results: [
      { topic: 'orders', partition: 0, errorCode: 0, errorMessage: '' },
      { topic: 'orders', partition: 3, errorCode: ErrorCode.ILLEGAL_GENERATION, errorMessage: 'not held' },
    ],
  },
  {
    ...responseHeader,
    kind: 'fetch',
    offsets: [{ topic: 'orders', partition: 2, offset: -1, leaderEpoch: -1, metadata: '' }],
  },
]

describe('protocol > codec', () => {
  it.each(requests.map((r) => [r.kind, r] as const))('round-trips a %s request', (_kind, request) => {
    expect(decodeGroupRequest(encodeGroupRequest(request))).toEqual(request)
  })

  it.each(responses.map((r) => [r.kind, r] as const))('round-trips a %s response', (_kind, response) => {
    expect(decodeGroupResponse(encodeGroupResponse(response))).toEqual(response)
  })

  const invalid: Array<[string, Partial<pb.GroupRequest>]> = [
    ['no body', {}],
    [
      'two bodies',
      {
        heartbeat: { memberId: 'm', groupInstanceId: '', generation: 1, maxWaitMs: 0 },
        leave: { memberId: 'm', groupInstanceId: '', reason: '' },
      },
    ],
    [
      'an empty group id',
      { groupId: '', heartbeat: { memberId: 'm', groupInstanceId: '', generation: 1, maxWaitMs: 0 } },
    ],
    ['request id 0', { requestId: 0n, heartbeat: { memberId: 'm', groupInstanceId: '', generation: 1, maxWaitMs: 0 } }],
    [
      'a request id beyond 2^53',
      { requestId: 2n ** 60n, heartbeat: { memberId: 'm', groupInstanceId: '', generation: 1, maxWaitMs: 0 } },
    ],
    ['another version', { version: 2, heartbeat: { memberId: 'm', groupInstanceId: '', generation: 1, maxWaitMs: 0 } }],
    ['a heartbeat without member', { heartbeat: { memberId: '', groupInstanceId: '', generation: 1, maxWaitMs: 0 } }],
    [
      'a heartbeat parked beyond the bound',
      { heartbeat: { memberId: 'm', groupInstanceId: '', generation: 1, maxWaitMs: 120_001 } },
    ],
    ['a negative generation', { sync: { memberId: 'm', groupInstanceId: '', generation: -2 } }],
    ['a bad instance id', { sync: { memberId: 'm', groupInstanceId: 'tab 1', generation: 1 } }],
    ['a join without protocols', { join: join({ protocols: [] }) }],
    ['a join with a duplicated protocol', { join: join({ protocols: ['range', 'range'] }) }],
    ['a join with a bad topic name', { join: join({ topics: ['no spaces'] }) }],
    ['a join with a topic twice', { join: join({ topics: ['a', 'a'] }) }],
    ['a join owning a partition twice', { join: join({ owned: [{ topic: 'a', partitions: [1, 1] }] }) }],
    ['a join owning partition 10000', { join: join({ owned: [{ topic: 'a', partitions: [10_000] }] }) }],
    ['a join with session timeout 0', { join: join({ sessionTimeoutMs: 0 }) }],
    ['a commit with a negative offset', { commit: commit({ offset: -5n }) }],
    ['a commit with a member but no generation', { commit: { ...commit({}), generation: -1 } }],
    ['a leave naming nobody', { leave: { memberId: '', groupInstanceId: '', reason: '' } }],
  ]

  it.each(invalid)('refuses %s with InvalidRequestError', (_what, fields) => {
    const bytes = pb.GroupRequest.encode({ version: 1, groupId: 'g', sender: 's', requestId: 1n, ...fields })
    expect(() => decodeGroupRequest(bytes)).toThrow(InvalidRequestError)
  })

  it('refuses a message over the size bound before decoding it', () => {
    expect(() => decodeGroupRequest(new Uint8Array(MAX_GROUP_MESSAGE_BYTES + 1))).toThrow(/exceed/)
  })

  it('refuses a response assigning and revoking the same partition', () => {
    const bytes = encodeGroupResponse(responses[1]!)
    const m = pb.GroupResponse.decode(bytes)
    m.sync!.revoke = m.sync!.assignment
    expect(() => decodeGroupResponse(pb.GroupResponse.encode(m))).toThrow(/both assigned and revoked/)
  })

  it('never encodes what it would refuse', () => {
    expect(() => encodeGroupRequest({ ...requests[1]!, generation: -3 } as GroupRequest)).toThrow(InvalidRequestError)
  })

  it('turns random and mutated bytes into InvalidRequestError or a valid message, never anything else', () => {
    const rng = new Rng(42)
    const valid = [...requests.map(encodeGroupRequest), ...responses.map(encodeGroupResponse)]
    for (let i = 0; i < 3000; i++) {
      let bytes: Uint8Array
      if (i % 2 === 0) {
        bytes = new Uint8Array(rng.int(0, 80)).map(() => rng.int(0, 255))
      } else {
        bytes = new Uint8Array(rng.pick(valid))
        for (let flips = rng.int(1, 4); flips > 0 && bytes.length > 0; flips--)
          bytes[rng.int(0, bytes.length - 1)] = rng.int(0, 255)
      }
      for (const decode of [decodeGroupRequest, decodeGroupResponse]) {
        try {
          decode(bytes)
        } catch (err) {
          expect(err).toBeInstanceOf(InvalidRequestError)
        }
      }
    }
  })
})

function join(overrides: Partial<pb.JoinGroupRequest>): pb.JoinGroupRequest {
  return {
    memberId: '',
    groupInstanceId: '',
    clientId: 'c',
    protocolType: 'consumer',
    protocols: ['range'],
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 10_000,
    topics: ['a'],
    owned: [],
    ownedGeneration: -1,
    reason: '',
    startedAt: 0n,
    ...overrides,
  }
}

function commit(partition: Partial<pb.CommitPartition>): pb.OffsetCommitRequest {
  return {
    memberId: 'm',
    groupInstanceId: '',
    generation: 1,
    topics: [{ topic: 'a', partitions: [{ partition: 0, offset: 1n, leaderEpoch: -1, metadata: '', ...partition }] }],
  }
}
