/**
 * Protocol ids, gossipsub topics, and the default limits and timeouts of the mesh. Protocol ids
 * follow `/tributary/<name>/<major>.0.0` (DESIGN.md "The mesh"); a breaking change bumps the major.
 */

export const PROTOCOL_PREFIX = '/tributary'

export const PROTOCOLS = {
  produce: '/tributary/produce/1.0.0',
  fetch: '/tributary/fetch/1.0.0',
  offsets: '/tributary/offsets/1.0.0',
  metadata: '/tributary/metadata/1.0.0',
  admin: '/tributary/admin/1.0.0',
  /** Consumer-group member ↔ coordinator requests (served by @tributary/groups' service, not by mesh). */
  group: '/tributary/group/1.0.0',
  /** Consumer-group administration: list, describe, delete, reset offsets (also served by @tributary/groups). */
  groupAdmin: '/tributary/group-admin/1.0.0',
  metaSync: '/tributary/meta-sync/1.0.0',
  /** Two peers' heartbeats, exchanged directly when they connect (membership/hello.ts). */
  membershipHello: '/tributary/membership-hello/1.0.0',
  raft: '/tributary/raft/1.0.0',
  raftFetch: '/tributary/raft-fetch/1.0.0',
  /** Replica fetches of several partitions to one leader, together (replica-fetch-bundles.ts). */
  raftFetchBundle: '/tributary/raft-fetch-bundle/1.0.0',
  perf: '/tributary/perf/1.0.0',
  /** Round trips of one stream: the latency reference (perf-echo.ts). */
  perfEcho: '/tributary/perf-echo/1.0.0',
} as const

export type ProtocolName = keyof typeof PROTOCOLS

/** Gossipsub topics. A breaking change of a topic's message format bumps the trailing number. */
export const TOPICS = {
  membership: 'tributary/membership/1',
  metadata: 'tributary/metadata/1',
} as const

// --- RPC ---------------------------------------------------------------------------------------

/** Largest request payload a server accepts by default (Kafka's max.request.size is 1 MiB; batches fit). */
export const DEFAULT_MAX_REQUEST_BYTES = 8 * 1024 * 1024
/** Largest response payload a client accepts by default (room for a fetch response of several batches). */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024
/** Requests a server runs at once per stream; a long-poll fetch must not block produce on the same stream. */
export const DEFAULT_MAX_IN_FLIGHT_PER_STREAM = 32
/** A handler not done by then is answered REQUEST_TIMED_OUT and its signal aborted. Above any long-poll wait. */
export const DEFAULT_HANDLER_TIMEOUT_MS = 30_000
/** Requests a client has outstanding on its stream at once. */
export const DEFAULT_CLIENT_MAX_IN_FLIGHT = 32
/** Requests a client queues behind a full in-flight window before refusing more. */
export const DEFAULT_CLIENT_MAX_QUEUED = 1024
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000
/** Opening a stream: dial (if not connected) plus protocol negotiation. */
export const DEFAULT_DIAL_TIMEOUT_MS = 10_000
/** A peer that does not read our responses for this long is cut off (its stream is reset). */
export const DEFAULT_DRAIN_TIMEOUT_MS = 30_000
/**
 * Yamux's largest stream receive window (@libp2p/yamux MAX_STREAM_WINDOW). A paused stream can still
 * receive this much (the window granted before the pause), so a server stream's read buffer must hold
 * it: libp2p's default maxReadBufferLength (4 MiB) is smaller, and a paused stream on a fast link got
 * reset with StreamBufferError.
 */
export const YAMUX_MAX_STREAM_WINDOW = 16 * 1024 * 1024
/** Longest message an error frame carries back to the caller. */
export const MAX_ERROR_MESSAGE_LENGTH = 1024

/** Software version announced in heartbeats. */
export const TRIBUTARY_VERSION = '0.1.0'

// --- Membership --------------------------------------------------------------------------------

export const DEFAULT_HEARTBEAT_INTERVAL_MS = 1000
export const DEFAULT_FAILURE_TIMEOUT_MS = 5000
/** A dead or departed member stays in the view this long (so its late heartbeats are recognised), then is forgotten. */
/** How long stop() waits for its `leaving` heartbeat to be published and handed to connected peers. */
export const LEAVE_PUBLISH_TIMEOUT_MS = 1000
export const DEFAULT_FORGET_AFTER_MS = 5 * 60_000
/** Largest encoded heartbeat accepted; a real one is a few hundred bytes. */
export const MAX_HEARTBEAT_BYTES = 8 * 1024
export const MAX_HEARTBEAT_ADDRESSES = 32
export const MAX_ADDRESS_LENGTH = 512
export const MAX_VERSION_LENGTH = 64
export const MAX_PEER_ID_LENGTH = 128
/** Members kept in the view; heartbeats of further unknown peers are ignored. */
export const DEFAULT_MAX_MEMBERS = 4096
/** Membership stops dialing learned members once this many peers are connected. */
export const DEFAULT_MESH_MAX_CONNECTIONS = 64
/** Dials to learned members running at once. */
export const DEFAULT_MESH_DIAL_CONCURRENCY = 4
export const DEFAULT_MESH_DIAL_TIMEOUT_MS = 5000
export const DEFAULT_MESH_DIAL_BACKOFF_MS = 500
export const DEFAULT_MESH_MAX_DIAL_BACKOFF_MS = 30_000

// --- Node --------------------------------------------------------------------------------------

export const DEFAULT_LISTEN_HOST = '127.0.0.1'
export const DEFAULT_BOOTSTRAP_ATTEMPTS = 8
export const DEFAULT_BOOTSTRAP_BACKOFF_MS = 250
export const DEFAULT_BOOTSTRAP_MAX_BACKOFF_MS = 10_000
export const DEFAULT_BOOTSTRAP_DIAL_TIMEOUT_MS = 5000
/** File, inside the data directory, holding the peer's private key (protobuf, mode 0600). */
export const PEER_KEY_FILE = 'peer-key'

// --- Replication --------------------------------------------------------------------------------

/**
 * Per-partition Raft timing of a peer, KRaft's defaults: a follower stands after 2-3 s without a
 * successful fetch (jittered so followers do not split the vote), a candidate retries after 1-2 s,
 * replicas long-poll the leader for up to 500 ms (Kafka's replica.fetch.wait.max.ms): new data
 * answers a poll at once, so the wait only sets what an idle partition costs — one poll per
 * follower per wait, which for the groups bench's ~100 partitions was most of its idle peers' CPU. A leader whose connection closes (a crash) is
 * replaced at once (leaderUnreachable); only a silent one (frozen, partitioned) waits the fetch
 * timeout. Half these timeouts (1 s / 0.5 s) set off elections on a loaded 2-core machine: with
 * a browser and eight consumer processes beside three peers, stalls of the peers' event loops
 * outlasted 1 s and the groups benchmark's coordinators changed hands mid-run.
 * Leaders check every 30 s that they are their partition's preferred leader (Kafka checks every
 * 300 s; peers restart far more often than brokers, and a hand-over costs one election). A voter
 * out of sync for 60 s (after the 30 s lag of the in-sync set) is replaced.
 */
export const DEFAULT_PEER_RAFT = {
  fetchTimeoutMs: 2000,
  electionTimeoutMs: 1000,
  fetchMaxWaitMs: 500,
  requestTimeoutMs: 1000,
  leaderImbalanceCheckIntervalMs: 30_000,
} as const
