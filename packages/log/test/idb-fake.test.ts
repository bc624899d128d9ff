/**
 * The IndexedDB store under Node with fake-indexeddb: a fast extra run of the compliance
 * suite and the idb-specific cases. The real check is idb.browser.test.ts, in Chromium.
 */
import 'fake-indexeddb/auto'
import { describeLogCompliance } from '@tributary/test-utils'
import { deleteIdbDatabase, IdbStore, openIdbLog } from '../src/idb/index.js'
import { describeIdbStore, freshDbName } from './idb-cases.js'

describeLogCompliance('idb (fake-indexeddb)', () => {
  const dbName = freshDbName()
  return {
    open: (id, options) => openIdbLog({ name: id, dbName, ...options }),
    store: (id) => new IdbStore({ partitionKey: id, dbName }),
    cleanup: () => deleteIdbDatabase(dbName),
  }
})

describeIdbStore('fake-indexeddb')
