/** The browser entry of the node module: everything here is free of node: imports. */
export {
  type BootstrapDialer,
  type BootstrapOptions,
  type BootstrapResult,
  bootstrapDialer,
} from './bootstrap.js'
export {
  type BrowserMeshNode,
  type BrowserMeshNodeOptions,
  type BrowserMeshNodeServices,
  createBrowserMeshNode,
} from './browser-node.js'
export { gossipsubOptions, type MeshServices, meshServiceFactories } from './services.js'
