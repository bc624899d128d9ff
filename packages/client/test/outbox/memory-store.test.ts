import { MemoryOutboxStore } from '../../src/outbox/memory-store.js'
import { describeOutboxStore } from './store-contract.js'

// A memory store is its own durable medium: reopening means opening the same object again.
describeOutboxStore('memory', { create: () => new MemoryOutboxStore(), reopen: (previous) => previous })
