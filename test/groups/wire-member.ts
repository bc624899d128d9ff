/**
 * A GroupMember driven over the real `/tributary/group/1.0.0` protocol from a libp2p node, for
 * the coordinator-service tests: it sends each request to the peer it believes coordinates the
 * group, follows NOT_COORDINATOR hints, tries the next peer when one is unreachable or has no
 * coordinator, and ticks the member at its deadlines. Revocations are acknowledged at once.
 */
import type { PeerId } from '@libp2p/interface'
import {
  decodeGroupResponse,
  encodeGroupRequest,
  GroupMember,
  type GroupRequest,
  type GroupResponse,
  type MemberEvent,
  type MemberOptions,
  type MemberOutput,
} from '@tributary/groups'
import { PROTOCOLS } from '@tributary/mesh'
import { RpcClient, type RpcDialer } from '@tributary/mesh/rpc'
import { ErrorCode } from '@tributary/wire'

let nonces = 0

export class WireMember {
  readonly member: GroupMember
  readonly events: MemberEvent[] = []
  /** Every answer received, in order (the errors included). */
  readonly responses: GroupResponse[] = []
  private readonly clients = new Map<string, RpcClient>()
  private target: string
  private next = 0
  private timer: ReturnType<typeof setTimeout> | undefined
  private closed = false

  constructor(
    private readonly node: RpcDialer,
    /** Peer ids to try, and how to dial each. */
    private readonly candidates: ReadonlyArray<{ id: string; peerId: PeerId }>,
    options: MemberOptions,
  ) {
    this.member = new GroupMember(options, { newSender: () => `wire-${process.pid}-${++nonces}` })
    this.target = candidates[0]!.id
  }

  start(): void {
    this.apply(this.member.start(Date.now()))
  }

  commit(offsets: Array<{ topic: string; partition: number; offset: number }>): number {
    const out = this.member.commit(
      offsets.map((o) => ({ ...o, leaderEpoch: -1, metadata: '' })),
      Date.now(),
    )
    this.apply(out)
    return out.requestId
  }

  fetchOffsets(): number {
    const out = this.member.fetchOffsets(undefined, Date.now())
    this.apply(out)
    return out.requestId
  }

  /** Leaves the group (if `leave`) and stops every timer and stream. */
  async stop(leave = true): Promise<void> {
    if (leave && !this.closed) {
      this.apply(this.member.leave(Date.now()))
      const deadline = Date.now() + 5_000
      while (!this.events.some((e) => e.type === 'left') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    this.closed = true
    clearTimeout(this.timer)
    await Promise.allSettled([...this.clients.values()].map((c) => c.close()))
  }

  private apply(out: MemberOutput): void {
    if (this.closed) return
    for (const event of out.events) {
      this.events.push(event)
      // Commit-on-revoke is the SDK's business; here revocations are acknowledged at once.
      if (event.type === 'revoke') queueMicrotask(() => this.apply(this.member.revocationDone(Date.now())))
    }
    for (const request of out.requests) void this.send(request)
    this.schedule()
  }

  private async send(request: GroupRequest): Promise<void> {
    const target = this.target
    try {
      const bytes = await this.client(target).request(encodeGroupRequest(request), { timeoutMs: 15_000 })
      const response = decodeGroupResponse(bytes)
      this.responses.push(response)
      if (response.errorCode === ErrorCode.NOT_COORDINATOR && response.coordinatorHint !== undefined) {
        this.target = response.coordinatorHint
      } else if (
        response.errorCode === ErrorCode.NOT_COORDINATOR ||
        response.errorCode === ErrorCode.COORDINATOR_NOT_AVAILABLE
      ) {
        this.rotate(target)
      }
      if (!this.closed) this.apply(this.member.handle(response, Date.now()))
    } catch {
      // Unreachable or stream closed: the member's own request timeout resends; try another peer.
      this.rotate(target)
    }
  }

  private rotate(from: string): void {
    if (this.target !== from) return
    this.next = (this.next + 1) % this.candidates.length
    this.target = this.candidates[this.next]!.id
  }

  private client(id: string): RpcClient {
    let client = this.clients.get(id)
    if (client === undefined) {
      const candidate = this.candidates.find((c) => c.id === id)
      if (candidate === undefined) throw new Error(`no address for ${id}`)
      client = new RpcClient(this.node, candidate.peerId, PROTOCOLS.group, { requestTimeoutMs: 15_000 })
      this.clients.set(id, client)
    }
    return client
  }

  private schedule(): void {
    clearTimeout(this.timer)
    const next = this.member.nextDeadline()
    if (next === undefined || this.closed) return
    this.timer = setTimeout(() => this.apply(this.member.tick(Date.now())), Math.max(5, next - Date.now()))
  }
}
