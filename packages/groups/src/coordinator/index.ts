export {
  type CoordinatorComponents,
  type CoordinatorConfig,
  type CoordinatorOptions,
  type CoordinatorRules,
  coordinatorConfig,
  DEFAULT_COORDINATOR_CONFIG,
} from './config.js'
export { GroupCoordinator, type GroupDescription, type GroupMemberDescription } from './coordinator.js'
export type { GroupState } from './group.js'
export { type CoordinatorEvent, type CoordinatorOutput, errorResponse, type RemovalReason } from './output.js'
