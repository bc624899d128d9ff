import { defaultClientConditions, defineConfig } from 'vite'

// Workspace packages resolve to their TypeScript sources (the repository's `source` condition),
// so the app is always built from the same code the tests run.
export default defineConfig({
  resolve: { conditions: ['source', ...defaultClientConditions] },
  // `npm run dev -w apps/web`: the page asks the local peer (npm start, HTTP 4080) how to join.
  server: { proxy: { '/bootstrap.json': 'http://127.0.0.1:4080' } },
  build: {
    target: 'es2022',
    sourcemap: true,
    // libp2p and uPlot together are well past Vite's 500 kB warning; the page is one app.
    chunkSizeWarningLimit: 2048,
  },
})
