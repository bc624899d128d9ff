/**
 * Test helpers and compliance suites for Tributary packages. Imported only by tests.
 *
 * ```ts
 * import { describeLogCompliance } from '@tributary/test-utils'
 * describeLogCompliance('memory', () => ({ open: (id) => openMemoryLog({ name: id }) }))
 * ```
 */
export * from './log-compliance.js'
export * from './log-helpers.js'
