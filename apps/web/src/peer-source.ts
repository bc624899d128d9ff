/**
 * The page as a peer of the mesh: a browser peer (@tributary/mesh/browser: gossip membership,
 * metadata, Raft observer replicas in IndexedDB) with the SDK on top of it (`Tributary.fromPeer`).
 *
 * Each open tab must be its own peer (its own IndexedDB databases and identity), and a reloaded
 * tab should come back as the same peer with its replicas. A Web Lock per slot gives both: a tab
 * holds the first free slot `tributary-web-<n>` for its life; a reload frees and retakes it.
 */
import { Tributary } from '@tributary/client'
import { type BrowserPeer, createBrowserPeer } from '@tributary/mesh/browser'
import type { Bootstrap } from './bootstrap.js'
import { type PeerStorageStatus, TributarySource } from './mesh-source.js'

/** Tabs of this app one browser profile may run as peers at once. */
const MAX_SLOTS = 16

let claimed: Promise<string> | undefined

/** Holds a slot lock until the page goes away; resolves with the slot's name (claimed once per page). */
function claimSlot(): Promise<string> {
  claimed ??= claimFreeSlot().catch((err: unknown) => {
    claimed = undefined
    throw err
  })
  return claimed
}

async function claimFreeSlot(): Promise<string> {
  const locks = (navigator as { locks?: LockManager }).locks
  if (locks === undefined) {
    // No Web Locks (an insecure context): keep one name per tab session, reused across reloads.
    const saved = sessionStorage.getItem('tributary-web-slot')
    const name = saved ?? `tributary-web-s${crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36)}`
    sessionStorage.setItem('tributary-web-slot', name)
    return name
  }
  for (let slot = 0; slot < MAX_SLOTS; slot++) {
    const name = `tributary-web-${slot}`
    const held = await new Promise<boolean>((resolve) => {
      void locks.request(name, { ifAvailable: true }, async (lock) => {
        resolve(lock !== null)
        // Kept until the page unloads: the promise never settles while the tab lives.
        if (lock !== null) await new Promise(() => {})
      })
    })
    if (held) return name
  }
  throw new Error(`${MAX_SLOTS} tabs of this app already run as peers in this browser; close one`)
}

class PeerSource extends TributarySource {
  constructor(
    private readonly browserPeer: BrowserPeer,
    readonly slot: string,
  ) {
    // The outbox shares the tab's slot name: a reloaded tab delivers what it queued before.
    super('peer', Tributary.fromPeer(browserPeer.peer), slot, () => browserPeer.stop())
  }

  override async observe(topic: string): Promise<void> {
    await this.browserPeer.peer.observe(topic)
  }

  override observed(): string[] {
    const topics = new Set<string>()
    for (const hosted of this.browserPeer.peer.partitions.list()) topics.add(hosted.topic)
    return [...topics].sort()
  }

  override links(): Map<string, string[]> {
    const links = new Map<string, string[]>()
    for (const connection of this.browserPeer.peer.node.getConnections()) {
      if (connection.status !== 'open') continue
      const id = connection.remotePeer.toString()
      links.set(id, [...(links.get(id) ?? []), connection.remoteAddr.toString()])
    }
    return links
  }

  override async peerStorage(): Promise<PeerStorageStatus> {
    const status = await this.browserPeer.storage.status()
    const last = this.browserPeer.storage.lastError
    return {
      logBytes: status.logBytes,
      budgetBytes: status.budgetBytes,
      persisted: status.persisted,
      replicas: this.browserPeer.peer.partitions.list().length,
      lastError: last === undefined ? undefined : `${last.topic}-${last.partition}: ${last.error.message}`,
    }
  }
}

/** Starts this tab's browser peer, joining through the Node peers `bootstrap` names. */
export async function startPagePeer(bootstrap: Bootstrap): Promise<TributarySource> {
  const slot = await claimSlot()
  const browserPeer = await createBrowserPeer({
    name: slot,
    bootstrap: bootstrap.addresses,
    // A page served over plain http can only reach its peer over ws:// (see mesh-source.ts).
    allowInsecureWebSockets: location.protocol === 'http:',
    storageBudgetBytes: 256 * 1024 * 1024,
  })
  return new PeerSource(browserPeer, slot)
}
