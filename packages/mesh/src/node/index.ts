export {
  type BootstrapComponents,
  type BootstrapDialer,
  type BootstrapInit,
  type BootstrapOptions,
  type BootstrapResult,
  bootstrapDialer,
} from './bootstrap.js'
export { createMeshNode, type MeshNode, type MeshNodeOptions, type MeshNodeServices } from './create-node.js'
export { type LoadIdentityOptions, loadOrCreatePeerKey, PeerKeyCorruptError } from './identity.js'
export { gossipsubOptions, type MeshServices, meshServiceFactories } from './services.js'
