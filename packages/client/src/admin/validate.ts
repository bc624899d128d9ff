/**
 * Admin requests are checked here with the peers' own rules (topic names, partition and replica
 * counts, log configs) before anything is sent, so a mistake is a typed error naming the topic;
 * the peer checks again, since other clients may skip this.
 */
import {
  MAX_PARTITIONS,
  MAX_REPLICATION_FACTOR,
  validateTopicConfigs,
  validateTopicName,
} from '@tributary/mesh/metadata'
import { InvalidPartitionsError, InvalidReplicationFactorError } from '@tributary/wire'
import { InvalidArgumentError } from '../errors.js'

export interface ConfigEntry {
  name: string
  value: string
}

export interface ITopicConfig {
  topic: string
  /** Default 1. */
  numPartitions?: number
  /** Default 1. */
  replicationFactor?: number
  configEntries?: ConfigEntry[]
}

export interface CheckedTopic {
  name: string
  partitions: number
  replicationFactor: number
  configs: Record<string, string>
}

export function checkTopicName(name: unknown): string {
  if (typeof name !== 'string') throw new InvalidArgumentError(`a topic name must be a string, got ${String(name)}`)
  validateTopicName(name) // InvalidTopicError, naming the rule broken
  return name
}

export function checkConfigEntries(entries: unknown, topic: string): Record<string, string> {
  if (entries === undefined) return {}
  if (!Array.isArray(entries))
    throw new InvalidArgumentError(`configEntries of ${topic} must be an array of { name, value }`)
  const configs: Record<string, string> = {}
  for (const entry of entries) {
    const { name, value } = (entry ?? {}) as { name?: unknown; value?: unknown }
    if (typeof name !== 'string' || typeof value !== 'string') {
      throw new InvalidArgumentError(
        `config entries of ${topic} must be { name: string, value: string }, got ${JSON.stringify(entry)}`,
      )
    }
    configs[name] = value
  }
  validateTopicConfigs(configs) // InvalidConfigError for unknown names or bad values
  return configs
}

export function checkTopicConfig(topic: unknown): CheckedTopic {
  if (typeof topic !== 'object' || topic === null)
    throw new InvalidArgumentError('each topic must be { topic, numPartitions, … }')
  const t = topic as ITopicConfig
  const name = checkTopicName(t.topic)
  const partitions = t.numPartitions ?? 1
  if (!Number.isInteger(partitions) || partitions < 1 || partitions > MAX_PARTITIONS) {
    throw new InvalidPartitionsError(
      `topic '${name}' cannot have ${String(partitions)} partitions; use an integer from 1 to ${MAX_PARTITIONS}`,
    )
  }
  const replicationFactor = t.replicationFactor ?? 1
  if (!Number.isInteger(replicationFactor) || replicationFactor < 1 || replicationFactor > MAX_REPLICATION_FACTOR) {
    throw new InvalidReplicationFactorError(
      `topic '${name}' cannot have replication factor ${String(replicationFactor)}; use an integer from 1 to the number of voting peers`,
    )
  }
  return { name, partitions, replicationFactor, configs: checkConfigEntries(t.configEntries, name) }
}
