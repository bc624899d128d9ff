/**
 * The consumer-group service of one peer: it serves `/tributary/group/1.0.0` and hosts a group
 * coordinator for each `__consumer_offsets` partition this peer leads (hosted-coordinator.ts).
 * The coordinator of group G is the leader of partition `abs(hashCode(G)) % 50`, as in Kafka; a
 * peer that is not answers NOT_COORDINATOR with the leader it knows as a hint. The topic is
 * created on the first group request (compacted, 50 partitions, RF min(3, voting peers));
 * concurrent creation on two peers resolves to one definition in the mesh metadata.
 *
 * Members talk to the coordinator directly over this request protocol (as Kafka clients do),
 * not over gossipsub: SDK clients are light libp2p nodes without gossipsub, and a request
 * protocol gives each request its answer, flow control and a timeout.
 */
import { componentLogger, type HostedPartition, type Logger, type Peer, PROTOCOLS, silentLogger } from '@tributary/mesh'
import type { RpcHandlerContext, UnregisterRpcHandler } from '@tributary/mesh/rpc'
import {
  CoordinatorLoadInProgressError,
  CoordinatorNotAvailableError,
  GroupIdNotFoundError,
  NotCoordinatorError,
  TopicAlreadyExistsError,
  TributaryError,
} from '@tributary/wire'
import { CONSUMER_OFFSETS_TOPIC, MAX_GROUP_MESSAGE_BYTES } from '../constants.js'
import type { CoordinatorOptions } from '../coordinator/config.js'
import { errorResponse } from '../coordinator/output.js'
import { decodeGroupAdminRequest, encodeGroupAdminResponse } from '../protocol/admin-codec.js'
import type { GroupRequest, GroupResponse } from '../protocol/messages.js'
import { decodeGroupRequest } from '../protocol/request-codec.js'
import { encodeGroupResponse } from '../protocol/response-codec.js'
import {
  coordinatorPartitionFor,
  OFFSETS_TOPIC_PARTITIONS,
  OFFSETS_TOPIC_REPLICATION_FACTOR,
} from './coordinator-partition.js'
import { HostedCoordinator } from './hosted-coordinator.js'

/** What the service uses of a peer. */
export type GroupServicePeer = Pick<
  Peer,
  | 'peerId'
  | 'partitions'
  | 'registry'
  | 'leaderOf'
  | 'voters'
  | 'createTopic'
  | 'registerProtocol'
  | 'onPartitionChange'
>

export interface GroupServiceOptions {
  /** Coordinator settings (session timeout bounds, initial rebalance delay, …). */
  coordinator?: CoordinatorOptions
  /** Partitions of `__consumer_offsets` when this peer creates it (Kafka's offsets.topic.num.partitions). */
  offsetsPartitions?: number
  /** Wait for a commit (loading, each append) at most this long. */
  commitTimeoutMs?: number
  logger?: Logger
}

/** A JoinGroup answer waits for the rebalance; Kafka bounds rebalance timeouts by max.poll.interval (5 min default). */
const GROUP_HANDLER_TIMEOUT_MS = 10 * 60_000
const DEFAULT_COMMIT_TIMEOUT_MS = 30_000
/** Leadership changes are events; this sweep only catches replicas removed without one. */
const SWEEP_INTERVAL_MS = 1_000

export class GroupService {
  private readonly hosts = new Map<number, HostedCoordinator>()
  private readonly logger: Logger
  private readonly unsubscribe: Array<() => void> = []
  private readonly unregister: UnregisterRpcHandler[] = []
  private sweepTimer: ReturnType<typeof setInterval> | undefined
  private creating: Promise<void> | undefined
  private stopped = false

  private constructor(
    private readonly peer: GroupServicePeer,
    private readonly options: GroupServiceOptions,
  ) {
    this.logger = componentLogger(options.logger ?? silentLogger, 'groups')
  }

  /** Serves the group protocol on `peer` and coordinates the groups of the partitions it leads. */
  static async start(peer: GroupServicePeer, options: GroupServiceOptions = {}): Promise<GroupService> {
    const service = new GroupService(peer, options)
    service.unsubscribe.push(peer.onPartitionChange((hosted) => service.reconcile(hosted)))
    service.unsubscribe.push(
      peer.registry.onTopicChange(() => {
        for (const host of service.hosts.values()) host.topicsChanged()
      }),
    )
    service.sweepTimer = setInterval(() => service.sweep(), SWEEP_INTERVAL_MS)
    service.sweepTimer.unref?.()
    service.sweep()
    service.unregister.push(
      await peer.registerProtocol(PROTOCOLS.group, (bytes, ctx) => service.serve(bytes, ctx), {
        maxRequestBytes: MAX_GROUP_MESSAGE_BYTES,
        handlerTimeoutMs: GROUP_HANDLER_TIMEOUT_MS,
      }),
      await peer.registerProtocol(PROTOCOLS.groupAdmin, (bytes) => service.serveAdmin(bytes), {
        maxRequestBytes: MAX_GROUP_MESSAGE_BYTES,
      }),
    )
    return service
  }

  /** The coordinator hosted here for `groupId`'s partition, if this peer leads it (tests, admin). */
  coordinatorOf(groupId: string): HostedCoordinator | undefined {
    return this.hosts.get(coordinatorPartitionFor(groupId, this.offsetsPartitionCount()))
  }

  /** Every coordinator hosted here, by `__consumer_offsets` partition. */
  hosted(): ReadonlyMap<number, HostedCoordinator> {
    return this.hosts
  }

  /** Stops serving and drops every coordinator (pending members are told NOT_COORDINATOR). Idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    clearInterval(this.sweepTimer)
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe()
    for (const host of this.hosts.values()) host.close('the peer is stopping')
    this.hosts.clear()
    for (const unregister of this.unregister.splice(0)) await unregister()
  }

  private offsetsPartitionCount(): number {
    return (
      this.peer.partitions.topic(CONSUMER_OFFSETS_TOPIC)?.partitions ??
      this.options.offsetsPartitions ??
      OFFSETS_TOPIC_PARTITIONS
    )
  }

  private async serveAdmin(bytes: Uint8Array): Promise<Uint8Array> {
    const request = decodeGroupAdminRequest(bytes)
    const empty = { errorCode: 0, errorMessage: '', coordinatorHint: undefined, groups: [], group: undefined }
    if (request.kind === 'list') {
      // The groups this peer coordinates; a client asks every peer and merges.
      const groups = [...this.hosts.values()].flatMap((host) =>
        (host.groups?.listGroups() ?? []).map((g) => ({
          groupId: g.groupId,
          state: g.state,
          protocolType: g.protocolType ?? '',
          members: g.members,
        })),
      )
      return encodeGroupAdminResponse({ ...empty, groups })
    }
    try {
      const host = this.hostFor(request.groupId)
      if (request.kind === 'describe') {
        const coordinator = host.groups
        if (coordinator === undefined) throw new CoordinatorLoadInProgressError('the coordinator is loading its groups')
        const d = coordinator.describeGroup(request.groupId)
        if (d === undefined) throw new GroupIdNotFoundError(`group ${request.groupId} does not exist`)
        return encodeGroupAdminResponse({
          ...empty,
          group: {
            groupId: d.groupId,
            state: d.state,
            generation: d.generation,
            protocolType: d.protocolType ?? '',
            protocol: d.protocol ?? '',
            members: d.members.map((m) => ({
              memberId: m.memberId,
              groupInstanceId: m.groupInstanceId,
              clientId: m.clientId,
              assignment: m.assignment,
            })),
            offsets: coordinator.committedOffsets(request.groupId),
          },
        })
      }
      if (request.kind === 'delete') await host.change((c, now) => c.deleteGroup(request.groupId, now))
      else {
        const offsets = request.offsets.map((o) => ({ ...o, leaderEpoch: -1, metadata: '' }))
        await host.change((c, now) => c.alterOffsets(request.groupId, offsets, now))
      }
      return encodeGroupAdminResponse(empty)
    } catch (err) {
      if (!(err instanceof TributaryError)) throw err
      return encodeGroupAdminResponse({
        ...empty,
        errorCode: err.code,
        errorMessage: err.message.slice(0, 1024),
        coordinatorHint: (err as TributaryError & { coordinatorHint?: string }).coordinatorHint,
      })
    }
  }

  /** The loaded coordinator of `groupId` here, or the typed error to answer (NOT_COORDINATOR carries the leader). */
  private hostFor(groupId: string): HostedCoordinator {
    const topic = this.peer.partitions.topic(CONSUMER_OFFSETS_TOPIC)
    if (topic === undefined)
      throw new GroupIdNotFoundError(`group ${groupId} does not exist (no group has committed yet)`)
    const partition = coordinatorPartitionFor(groupId, topic.partitions)
    const host = this.hosts.get(partition)
    if (host !== undefined && host.status !== 'closed' && host.hosted.isLeader) return host
    const leader = this.peer.leaderOf(CONSUMER_OFFSETS_TOPIC, partition)?.leader
    if (leader === undefined || leader === '' || leader === this.peer.peerId) {
      throw new CoordinatorNotAvailableError(`${CONSUMER_OFFSETS_TOPIC}-${partition} has no leader yet`)
    }
    throw Object.assign(new NotCoordinatorError(`group ${groupId} is coordinated by ${leader}`), {
      coordinatorHint: leader,
    })
  }

  private async serve(bytes: Uint8Array, { signal }: RpcHandlerContext): Promise<Uint8Array> {
    // A malformed request throws InvalidRequestError: the caller gets an error frame, nothing changes.
    const request = decodeGroupRequest(bytes)
    return encodeGroupResponse(await this.route(request, signal))
  }

  private async route(request: GroupRequest, signal: AbortSignal): Promise<GroupResponse> {
    const topic = this.peer.partitions.topic(CONSUMER_OFFSETS_TOPIC)
    if (topic === undefined) {
      this.ensureTopic()
      return errorResponse(request, new CoordinatorNotAvailableError(`${CONSUMER_OFFSETS_TOPIC} is being created`))
    }
    const partition = coordinatorPartitionFor(request.groupId, topic.partitions)
    const host = this.hosts.get(partition)
    if (host !== undefined && host.status !== 'closed' && host.hosted.isLeader) return host.handle(request, signal)
    const leader = this.peer.leaderOf(CONSUMER_OFFSETS_TOPIC, partition)?.leader
    if (leader === undefined || leader === '' || leader === this.peer.peerId) {
      return errorResponse(
        request,
        new CoordinatorNotAvailableError(`${CONSUMER_OFFSETS_TOPIC}-${partition} has no leader yet`),
      )
    }
    return errorResponse(
      request,
      new NotCoordinatorError(`group ${request.groupId} is coordinated by ${leader}, not ${this.peer.peerId}`),
      leader,
    )
  }

  private ensureTopic(): void {
    this.creating ??= (async () => {
      try {
        const voters = this.peer.voters().length
        await this.peer.createTopic({
          name: CONSUMER_OFFSETS_TOPIC,
          partitions: this.options.offsetsPartitions ?? OFFSETS_TOPIC_PARTITIONS,
          replicationFactor: Math.max(1, Math.min(OFFSETS_TOPIC_REPLICATION_FACTOR, voters)),
          configs: { 'cleanup.policy': 'compact' },
        })
        this.logger.info({ topic: CONSUMER_OFFSETS_TOPIC }, 'created the group offsets topic')
      } catch (err) {
        if (!(err instanceof TopicAlreadyExistsError))
          this.logger.warn({ err }, `could not create ${CONSUMER_OFFSETS_TOPIC}`)
      } finally {
        this.creating = undefined
      }
    })()
  }

  /** Starts a coordinator where this peer began leading an offsets partition; drops the ones it no longer leads. */
  private reconcile(hosted: HostedPartition): void {
    if (this.stopped || hosted.topic !== CONSUMER_OFFSETS_TOPIC) return
    const current = this.hosts.get(hosted.partition)
    if (current !== undefined) {
      const serving =
        current.hosted === hosted &&
        hosted.isLeader &&
        current.epoch === hosted.raft.epoch &&
        current.status !== 'closed'
      if (serving) return
      // A change of a replica object that is no longer this peer's (removed meanwhile) says nothing.
      if (current.hosted !== hosted && this.peer.partitions.get(CONSUMER_OFFSETS_TOPIC, hosted.partition) !== hosted)
        return
      current.close(hosted.isLeader ? 'a new leader epoch began' : 'leadership moved')
      this.hosts.delete(hosted.partition)
    }
    if (hosted.isLeader && !this.hosts.has(hosted.partition)) {
      const host = new HostedCoordinator(hosted, {
        components: { partitionCount: (topic) => this.peer.partitions.topic(topic)?.partitions },
        config: this.options.coordinator ?? {},
        commitTimeoutMs: this.options.commitTimeoutMs ?? DEFAULT_COMMIT_TIMEOUT_MS,
        logger: this.logger,
        onFailed: (failed) => {
          if (this.hosts.get(hosted.partition) === failed) this.hosts.delete(hosted.partition)
          // Still leading: rebuild from the log at once (the durable truth).
          if (!this.stopped) queueMicrotask(() => this.reconcile(failed.hosted))
        },
      })
      this.hosts.set(hosted.partition, host)
      host.load()
    }
  }

  /** Hosts whose replica went away or stopped leading, and leaders without a host. */
  private sweep(): void {
    if (this.stopped) return
    for (const [partition, host] of [...this.hosts]) {
      const hosted = this.peer.partitions.get(CONSUMER_OFFSETS_TOPIC, partition)
      if (hosted !== host.hosted) {
        host.close('the replica was removed')
        this.hosts.delete(partition)
      }
    }
    for (const hosted of this.peer.partitions.list()) {
      if (hosted.topic === CONSUMER_OFFSETS_TOPIC) this.reconcile(hosted)
    }
  }
}
