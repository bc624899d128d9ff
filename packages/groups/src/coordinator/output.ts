/**
 * What one call into the coordinator produces: records to append to its `__consumer_offsets`
 * partition, answers to send, and events to log or count. The host applies them in order, with
 * one rule: an output's responses are sent only once every record returned so far (this output's
 * and all earlier ones) is durable. If an append fails, the host must drop this coordinator and
 * rebuild one from the log: its memory is ahead of what is durable.
 */
import type { TributaryError } from '@tributary/wire'
import type { GroupRequest, GroupResponse, GroupResponseBody } from '../protocol/messages.js'
import type { OffsetsRecord } from '../records/offsets-records.js'
import type { GroupState } from './group.js'

export type RemovalReason = 'session-timeout' | 'rebalance-timeout' | 'sync-timeout' | 'left' | 'replaced'

export type CoordinatorEvent =
  | { type: 'rebalance-started'; groupId: string; generation: number; reason: string }
  | { type: 'rebalance-completed'; groupId: string; generation: number; protocol: string | undefined; members: number }
  | { type: 'member-added'; groupId: string; memberId: string; groupInstanceId: string | undefined }
  | { type: 'member-removed'; groupId: string; memberId: string; reason: RemovalReason }
  | { type: 'state-changed'; groupId: string; state: GroupState; generation: number }

export interface CoordinatorOutput {
  records: OffsetsRecord[]
  responses: GroupResponse[]
  events: CoordinatorEvent[]
}

export class OutputBuilder {
  readonly records: OffsetsRecord[] = []
  readonly responses: GroupResponse[] = []
  readonly events: CoordinatorEvent[] = []

  respond(
    to: { groupId: string; sender: string; requestId: number },
    body: GroupResponseBody,
    options: { error?: TributaryError; sessionRenewed?: boolean } = {},
  ): void {
    this.responses.push({
      groupId: to.groupId,
      recipient: to.sender,
      requestId: to.requestId,
      errorCode: options.error?.code ?? 0,
      errorMessage: options.error?.message.slice(0, 1024) ?? '',
      sessionRenewed: options.sessionRenewed ?? false,
      ...body,
    })
  }

  /** Answers `request` with `error` and the empty body of its kind. */
  fail(request: GroupRequest, error: TributaryError, sessionRenewed = false): void {
    this.respond(request, emptyBody(request, error.code), { error, sessionRenewed })
  }

  build(): CoordinatorOutput {
    return { records: this.records, responses: this.responses, events: this.events }
  }
}

export function emptyBody(request: GroupRequest, errorCode: number): GroupResponseBody {
  switch (request.kind) {
    case 'join':
      return { kind: 'join', generation: -1, protocol: '', memberId: '' }
    case 'sync':
      return { kind: 'sync', generation: -1, protocol: '', assignment: [], revoke: [] }
    case 'heartbeat':
      return { kind: 'heartbeat' }
    case 'leave':
      return { kind: 'leave' }
    case 'commit':
      return {
        kind: 'commit',
        // Array check: an in-process request refused by validation may not even have offsets.
        results: (Array.isArray(request.offsets) ? request.offsets : []).map((o) => ({
          topic: o.topic,
          partition: o.partition,
          errorCode,
          errorMessage: '',
        })),
      }
    case 'fetch':
      return { kind: 'fetch', offsets: [] }
  }
}

/**
 * The answer to `request` when no coordinator serves it (not the coordinator, loading, not
 * reachable): the kind's empty body and the error, with the coordinator's peer id as a hint if known.
 */
export function errorResponse(request: GroupRequest, error: TributaryError, coordinatorHint?: string): GroupResponse {
  return {
    groupId: request.groupId,
    recipient: request.sender,
    requestId: request.requestId,
    errorCode: error.code,
    errorMessage: error.message.slice(0, 1024),
    sessionRenewed: false,
    ...(coordinatorHint === undefined || coordinatorHint === '' ? {} : { coordinatorHint }),
    ...emptyBody(request, error.code),
  }
}
