/**
 * Topic configs the mesh itself reads, beside the partition log's (`retention.ms`, …). They
 * travel in the same config map and are validated with the same rules (unknown names refused),
 * but never reach the log, which knows nothing of the network.
 */
import { resolveLogConfig } from '@tributary/log'
import { InvalidConfigError } from '@tributary/wire'

/**
 * `browser.voters.allowed` (`true` | `false`, default `false`): whether placement may make
 * browser peers that offer to vote (storage `idb`) voters of this topic's partitions. A tab
 * comes and goes, so by default browsers only observe.
 */
export const BROWSER_VOTERS_ALLOWED = 'browser.voters.allowed'

const BOOLEAN_CONFIGS: ReadonlySet<string> = new Set([BROWSER_VOTERS_ALLOWED])

/** Names of the mesh's own topic configs, for admin listings. */
export const MESH_TOPIC_CONFIG_NAMES: readonly string[] = [...BOOLEAN_CONFIGS]

/** Throws `InvalidConfigError` for an unknown name or a bad value, mesh or log config alike. */
export function validateTopicConfigs(configs: Readonly<Record<string, string>>): void {
  for (const name of BOOLEAN_CONFIGS) {
    const value = configs[name]
    if (value !== undefined && value !== 'true' && value !== 'false') {
      throw new InvalidConfigError(`topic config '${name}' must be 'true' or 'false', got '${value}'`)
    }
  }
  resolveLogConfig({}, logTopicConfigs(configs))
}

/** The configs the partition log reads: all but the mesh's own. */
export function logTopicConfigs(configs: Readonly<Record<string, string>>): Record<string, string> {
  const log: Record<string, string> = {}
  for (const [name, value] of Object.entries(configs)) if (!BOOLEAN_CONFIGS.has(name)) log[name] = value
  return log
}

export function browserVotersAllowed(configs: Readonly<Record<string, string>> | undefined): boolean {
  return configs?.[BROWSER_VOTERS_ALLOWED] === 'true'
}
