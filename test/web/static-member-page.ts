/**
 * The static-member test's page (test/web/pages/static-member.ts) built with Vite — workspace
 * packages through the `source` condition — into a temp dir and served read-only on 127.0.0.1.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, defaultClientConditions } from 'vite'
import { servePages } from '../helpers/static-pages.ts'

const pagesDir = fileURLToPath(new URL('./pages/', import.meta.url))
const PAGE = 'static-member.html'

export interface ServedPage {
  /** The page's URL, without a query string. */
  url: string
  close(): Promise<void>
}

/** Builds the page into `root` and serves it; close() stops the server. */
export async function buildAndServeStaticMemberPage(root: string): Promise<ServedPage> {
  const outDir = join(root, 'page')
  await build({
    configFile: false,
    root: pagesDir,
    cacheDir: join(root, 'vite-cache'),
    logLevel: 'warn',
    resolve: { conditions: ['source', ...defaultClientConditions] },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2023',
      // Keeps the 500 kB warning quiet: the page bundles libp2p, as the web app does.
      chunkSizeWarningLimit: 4096,
      rolldownOptions: { input: join(pagesDir, PAGE) },
    },
  })
  return servePages(outDir, PAGE)
}
