/**
 * describeConfigs in KafkaJS's shape. A topic's configs are the ones set on it (source
 * TOPIC_CONFIG) and, for every other setting the log knows, a default entry (source
 * DEFAULT_CONFIG) whose value is null: defaults live in the peers' log package and are not
 * sent over the wire.
 */
import { LOG_CONFIG_NAMES } from '@tributary/log'
import type { TopicMetadata } from '../broker.js'

/** KafkaJS's numbering; Tributary has topic configs only. */
export const ConfigResourceTypes = { UNKNOWN: 0, TOPIC: 2, BROKER: 4, BROKER_LOGGER: 8 } as const

export interface ConfigResource {
  type: number
  name: string
  /** Only these names (default: all). */
  configNames?: string[]
}

export interface DescribedConfigEntry {
  configName: string
  configValue: string | null
  readOnly: boolean
  isDefault: boolean
  configSource: 'TOPIC_CONFIG' | 'DEFAULT_CONFIG'
  isSensitive: boolean
}

export interface DescribeConfigResponse {
  resources: Array<{
    errorCode: number
    errorMessage: string | null
    resourceType: number
    resourceName: string
    configEntries: DescribedConfigEntry[]
  }>
  throttleTime: number
}

export function describeTopicConfigs(resources: ConfigResource[], topics: TopicMetadata[]): DescribeConfigResponse {
  return {
    throttleTime: 0,
    resources: resources.map((resource) => {
      const topic = topics.find((t) => t.name === resource.name)
      if (topic === undefined || topic.error !== undefined) {
        return {
          errorCode: topic?.error?.code ?? 3,
          errorMessage: topic?.error?.message ?? `topic ${resource.name} does not exist`,
          resourceType: resource.type,
          resourceName: resource.name,
          configEntries: [],
        }
      }
      const wanted = resource.configNames === undefined ? undefined : new Set(resource.configNames)
      const names = [...new Set([...Object.keys(topic.configs), ...LOG_CONFIG_NAMES])].sort()
      const configEntries = names
        .filter((name) => wanted === undefined || wanted.has(name))
        .map((name): DescribedConfigEntry => {
          const set = Object.hasOwn(topic.configs, name)
          return {
            configName: name,
            configValue: set ? topic.configs[name]! : null,
            readOnly: false,
            isDefault: !set,
            configSource: set ? 'TOPIC_CONFIG' : 'DEFAULT_CONFIG',
            isSensitive: false,
          }
        })
      return {
        errorCode: 0,
        errorMessage: null,
        resourceType: resource.type,
        resourceName: resource.name,
        configEntries,
      }
    }),
  }
}
