/**
 * The browser benchmark's page: test/bench/pages/browser.ts built with Vite (workspace packages
 * through the `source` condition) into a temp dir and served read-only on 127.0.0.1.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, defaultClientConditions } from 'vite'
import { type ServedPages, servePages } from '../helpers/static-pages.ts'

const pagesDir = fileURLToPath(new URL('./pages/', import.meta.url))
const PAGE = 'browser.html'

export async function buildBrowserPage(outDir: string, cacheDir: string): Promise<void> {
  await build({
    configFile: false,
    root: pagesDir,
    cacheDir,
    logLevel: 'warn',
    resolve: { conditions: ['source', ...defaultClientConditions] },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2023',
      // Readable function names in --profile's CPU profiles; the speed of the code is the same.
      minify: false,
      chunkSizeWarningLimit: 8192,
      rolldownOptions: { input: join(pagesDir, PAGE) },
    },
  })
}

export function serveBrowserPage(root: string): Promise<ServedPages> {
  return servePages(root, PAGE)
}
