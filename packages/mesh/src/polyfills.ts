/**
 * Node 20 polyfills for libp2p 3. Import this module first in every Node entry point (and in tests
 * that create libp2p nodes): libp2p 3 calls `Promise.withResolvers` (Node 22+), and its WebSocket
 * transport dials through a global `WebSocket`, which Node 20 only has behind
 * `--experimental-websocket`. Without either one, dialing fails (see /work/shared/PLATFORM.md).
 *
 * Idempotent, and a no-op in browsers: both exist there, so `ws` is never loaded.
 */

interface WithResolvers<T> {
  promise: Promise<T>
  resolve: (value: T | PromiseLike<T>) => void
  reject: (reason?: unknown) => void
}

if (typeof Promise.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(): WithResolvers<T> {
      let resolve!: (value: T | PromiseLike<T>) => void
      let reject!: (reason?: unknown) => void
      const promise = new Promise<T>((res, rej) => {
        resolve = res
        reject = rej
      })
      return { promise, resolve, reject }
    },
  })
}

if (typeof globalThis.WebSocket === 'undefined' && typeof process !== 'undefined' && process.versions?.node) {
  const { WebSocket } = await import('ws')
  // `ws` implements the WHATWG surface libp2p's transport uses (binaryType, onopen/onmessage, close).
  globalThis.WebSocket = WebSocket as unknown as typeof globalThis.WebSocket
}

export {}
