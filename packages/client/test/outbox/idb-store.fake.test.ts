/**
 * The IndexedDB outbox store under Node with fake-indexeddb: a fast extra run of the store
 * contract and the IndexedDB cases. The real check is idb-store.browser.test.ts, in Chromium.
 */
import 'fake-indexeddb/auto'
import { IdbOutboxStore } from '../../src/outbox/idb-store.js'
import { describeIdbOutboxCases } from './idb-cases.js'
import { describeOutboxStore } from './store-contract.js'

let next = 0

describeOutboxStore('indexeddb (fake-indexeddb)', {
  create: () => new IdbOutboxStore(`fake-contract-${next++}`),
  reopen: (previous) => new IdbOutboxStore(previous.name),
})

describeIdbOutboxCases('indexeddb (fake-indexeddb)')
