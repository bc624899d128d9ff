import { playwright } from '@vitest/browser-playwright'
import { defaultClientConditions, defaultServerConditions } from 'vite'
import { defineConfig } from 'vitest/config'
import {
  consumePartitionFromNode,
  freezePeerProcess,
  pausePeerProcess,
  restartPeerProcess,
  setStorageQuota,
  startPeerProcessForPage,
  stopPeerProcess,
} from './test/browser-commands.ts'
import { chromiumArgs, chromiumPath } from './test/chromium.ts'

// Workspace packages are resolved to their TypeScript sources through the custom
// `source` export condition, so tests never run against a stale `dist/`.
const nodeConditions = ['source', ...defaultServerConditions]
const browserConditions = ['source', ...defaultClientConditions]

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { conditions: nodeConditions },
        ssr: { resolve: { conditions: nodeConditions } },
        test: {
          name: 'node',
          environment: 'node',
          // Node 20 lacks Promise.withResolvers and a global WebSocket, which libp2p 3 uses.
          setupFiles: ['packages/mesh/src/polyfills.ts'],
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/*.browser.test.ts', '**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { conditions: browserConditions },
        // Pre-bundled up front: discovered mid-run, Vite re-optimizes and reloads the page, which
        // fails the test file that triggered it.
        optimizeDeps: {
          include: [
            '@libp2p/circuit-relay-v2',
            '@libp2p/crypto/keys',
            '@libp2p/gossipsub',
            '@libp2p/identify',
            '@libp2p/noise',
            '@libp2p/peer-id',
            '@libp2p/ping',
            '@libp2p/webrtc',
            '@libp2p/websockets',
            '@libp2p/yamux',
            '@multiformats/multiaddr',
            'idb',
            'libp2p',
            'protons-runtime',
            'uint8arraylist',
            'uint8arrays/alloc',
          ],
        },
        test: {
          name: 'browser',
          include: ['packages/*/test/**/*.browser.test.ts', 'apps/*/test/**/*.browser.test.ts'],
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
              // With media permission Chromium exposes host ICE candidates instead of mDNS names,
              // which browser-to-browser WebRTC on loopback needs (PLATFORM.md).
              contextOptions: { permissions: ['microphone', 'camera'] },
            }),
            instances: [{ browser: 'chromium' }],
            commands: {
              freezePeerProcess,
              setStorageQuota,
              startPeerProcessForPage,
              stopPeerProcess,
              pausePeerProcess,
              restartPeerProcess,
              consumePartitionFromNode,
            },
          },
        },
      },
    ],
  },
})
