import type { TopicDescription } from '../metadata/index.js'

/** What the partition manager and the handlers need to know of a topic: its registry description. */
export type TopicView = TopicDescription
