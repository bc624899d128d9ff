/**
 * A member's bookkeeping of its requests: ids (increasing, the coordinator drops overtaken ones),
 * when and as whom each was sent (answers are matched to it, and a renewed session counts from
 * the moment it was sent), and the commits and offset fetches awaiting an answer, with deadlines.
 * Bounded: old entries are dropped first.
 */
import type { RequestKind } from '../protocol/messages.js'

export interface SentRequest {
  kind: RequestKind
  sentAt: number
  memberId: string
  generation: number
}

const MAX_TRACKED = 10_000

export class RequestLog {
  private nextId = 1
  private readonly sent = new Map<number, SentRequest>()
  private readonly awaiting = new Map<number, { kind: 'commit' | 'fetch'; deadline: number }>()

  /** Records a request about to be sent; returns its id. */
  record(request: SentRequest): number {
    const id = this.nextId++
    this.sent.set(id, request)
    if (this.sent.size > MAX_TRACKED) this.sent.delete(this.sent.keys().next().value as number)
    return id
  }

  get(id: number): SentRequest | undefined {
    return this.sent.get(id)
  }

  forget(id: number): void {
    this.sent.delete(id)
  }

  /** A new identity: answers to anything sent before are of no use. */
  forgetSent(): void {
    this.sent.clear()
  }

  /** The caller will hear about this commit or fetch: its answer, or a timeout at `deadline`. */
  await(id: number, kind: 'commit' | 'fetch', deadline: number): void {
    this.awaiting.set(id, { kind, deadline })
    if (this.awaiting.size > MAX_TRACKED) this.awaiting.delete(this.awaiting.keys().next().value as number)
  }

  /** True if `id` was awaited (and is no longer). */
  answered(id: number): boolean {
    this.sent.delete(id)
    return this.awaiting.delete(id)
  }

  /** Awaited requests past their deadline (now given up), and heartbeats and leaves too old to matter. */
  expire(now: number, requestTimeoutMs: number): Array<{ requestId: number; kind: 'commit' | 'fetch' }> {
    const expired: Array<{ requestId: number; kind: 'commit' | 'fetch' }> = []
    for (const [requestId, a] of this.awaiting) {
      if (now < a.deadline) continue
      this.awaiting.delete(requestId)
      this.sent.delete(requestId)
      expired.push({ requestId, kind: a.kind })
    }
    for (const [requestId, s] of this.sent) {
      if ((s.kind === 'heartbeat' || s.kind === 'leave') && now >= s.sentAt + requestTimeoutMs)
        this.sent.delete(requestId)
    }
    return expired
  }

  earliestDeadline(): number | undefined {
    let next: number | undefined
    for (const a of this.awaiting.values()) if (next === undefined || a.deadline < next) next = a.deadline
    return next
  }
}
