export { decodeHeartbeat, encodeHeartbeat, InvalidHeartbeatError, type ValidHeartbeat } from './heartbeat.js'
export { type IncarnationStore, nextIncarnation } from './incarnation.js'
export { MemberView, type MemberViewInit, type Transition } from './member-view.js'
export {
  Membership,
  type MembershipEvents,
  type MembershipInit,
  type MembershipNode,
  type MeshDialOptions,
} from './membership.js'
export {
  type Clock,
  type LeaveReason,
  type Member,
  type MemberLeave,
  type MemberRoles,
  type MemberStatus,
  STORAGE_KINDS,
  type StorageKind,
  systemClock,
  systemTimers,
  type Timers,
} from './types.js'
