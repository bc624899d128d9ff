/**
 * The client protocol handlers of a peer, by protocol id. A peer registers them on its libp2p
 * node; a client running inside the same peer calls them directly, since libp2p refuses to dial
 * its own peer id.
 */
import { PROTOCOLS } from '../constants.js'
import type { RpcHandler } from '../rpc/index.js'
import { adminHandler } from './admin.js'
import type { HandlerContext } from './context.js'
import { fetchHandler } from './fetch.js'
import { metadataHandler } from './metadata.js'
import { listOffsetsHandler } from './offsets.js'
import { produceHandler } from './produce.js'

export type { HandlerContext, MemberView, TopicSpec } from './context.js'

export function clientProtocolHandlers(ctx: HandlerContext): ReadonlyMap<string, RpcHandler> {
  return new Map<string, RpcHandler>([
    [PROTOCOLS.produce, produceHandler(ctx)],
    [PROTOCOLS.fetch, fetchHandler(ctx)],
    [PROTOCOLS.offsets, listOffsetsHandler(ctx)],
    [PROTOCOLS.metadata, metadataHandler(ctx)],
    [PROTOCOLS.admin, adminHandler(ctx)],
  ])
}
