/**
 * @tributary/groups/service — the group coordinator hosted in a peer (Node or browser peer, not
 * a light client): a separate entry point because it depends on @tributary/mesh, which SDK
 * clients importing @tributary/groups' state machines must not pull in.
 *
 * ```ts
 * const peer = await createPeer({ … })
 * const groups = await GroupService.start(peer, { logger })
 * // … on shutdown, first:
 * await groups.stop()
 * await peer.stop()
 * ```
 */
export { GroupService, type GroupServiceOptions, type GroupServicePeer } from './group-service.js'
export { HostedCoordinator } from './hosted-coordinator.js'
export { encodeOffsetsBatch, readOffsetsLog } from './offsets-log.js'
