/**
 * The Tributary SDK. For now: `Broker`, the one class that speaks Tributary's protocols to a
 * peer (KafkaJS's broker role); Producer, Consumer and Admin are built on it next.
 *
 * ```ts
 * import { Broker } from '@tributary/client'
 * const broker = new Broker(libp2p, multiaddr('/ip4/127.0.0.1/tcp/4001/p2p/12D3Koo…'))
 * await broker.createTopics([{ name: 'orders', partitions: 6, replicationFactor: 1 }])
 * const { baseOffset } = await broker.produce({ topic: 'orders', partition: 0, acks: 1, records: batchBytes })
 * const [part] = await broker.fetch({ maxWaitMs: 500, minBytes: 1, maxBytes: 1 << 20, partitions: [{ topic: 'orders', partition: 0, fetchOffset: 0 }] })
 * ```
 */
export {
  type Acks,
  Broker,
  type BrokerOptions,
  type ClusterMetadata,
  type FetchPartitionResult,
  type PartitionMetadata,
  type ProduceResult,
  type TopicMetadata,
  type TopicResult,
} from './broker.js'
