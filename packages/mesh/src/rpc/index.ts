export { abortReason, raceSignal } from './abort.js'
export {
  FrameTooLargeError,
  InvalidFrameError,
  NETWORK_EXCEPTION,
  PeerUnreachableError,
  RpcClientClosedError,
  RpcQueueFullError,
  RpcStreamClosedError,
} from './errors.js'
export {
  encodeFrame,
  FRAME_HEADER_BYTES,
  type Frame,
  FrameDecoder,
  type FrameDecoderInit,
  FrameKind,
  frameParts,
  type Payload,
  payloadLength,
} from './frame.js'
export { type RequestOptions, RpcClient, type RpcClientOptions, type RpcDialer } from './rpc-client.js'
export {
  createRpcServerStats,
  type RpcHandler,
  type RpcHandlerContext,
  type RpcRegistrar,
  type RpcServerOptions,
  type RpcServerStats,
  registerRpcHandler,
  type UnregisterRpcHandler,
} from './rpc-server.js'
export { DrainTimeoutError } from './stream-writer.js'
