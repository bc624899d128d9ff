/**
 * Limits on everything a group message or record can carry. A peer's input is checked against
 * these before anything acts on it; they are far above what a real group needs.
 */

/** Largest encoded group request, response or `__consumer_offsets` record value. */
export const MAX_GROUP_MESSAGE_BYTES = 4 * 1024 * 1024
/** Largest encoded `__consumer_offsets` key. */
export const MAX_OFFSETS_KEY_BYTES = 1024

export const MAX_GROUP_ID_LENGTH = 255
/** Member ids are `<clientId>-<sender>`. */
export const MAX_MEMBER_ID_LENGTH = 255
/** Kafka validates static instance ids like topic names. */
export const MAX_GROUP_INSTANCE_ID_LENGTH = 249
export const MAX_CLIENT_ID_LENGTH = 128
/** A member's nonce: 1-64 characters. */
export const MAX_SENDER_LENGTH = 64
export const MAX_PROTOCOL_TYPE_LENGTH = 64
export const MAX_PROTOCOL_NAME_LENGTH = 64
export const MAX_PROTOCOLS = 16
export const MAX_TOPIC_NAME_LENGTH = 249
export const MAX_SUBSCRIBED_TOPICS = 10_000
/** Partition numbers are below this (the mesh allows 10,000 partitions per topic). */
export const MAX_PARTITION_NUMBER = 10_000
/** Partitions in one assignment, ownership report, commit or fetch. */
export const MAX_PARTITIONS_PER_MESSAGE = 100_000
export const MAX_REASON_LENGTH = 256
/** A libp2p peer id as text (a coordinator hint). */
export const MAX_PEER_ID_LENGTH = 128
export const MAX_ERROR_MESSAGE_LENGTH = 1024
/** Kafka's `offset.metadata.max.bytes` default. */
export const MAX_OFFSET_METADATA_LENGTH = 4096
/** Kafka's timeouts are int32 milliseconds. */
export const MAX_TIMEOUT_MS = 2_147_483_647
/** The longest a coordinator may park a heartbeat's answer (a member asks for about two heartbeat intervals). */
export const MAX_HEARTBEAT_WAIT_MS = 120_000

export const CONSUMER_PROTOCOL_TYPE = 'consumer'
/** The internal compacted topic holding committed offsets and group metadata. */
export const CONSUMER_OFFSETS_TOPIC = '__consumer_offsets'

/** Generation of a member or commit outside any generation (Kafka's -1). */
export const NO_GENERATION = -1
