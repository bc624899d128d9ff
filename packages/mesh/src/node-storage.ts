/**
 * Node-only storage for a peer: partition logs in segment files and the metadata snapshot in
 * a file. Kept out of the main entry so browser bundles never import `node:fs`.
 */
export { FsLogFactory } from './partitions/fs-log-factory.js'
export { snapshotFile } from './snapshot-file.js'
