import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fingerprint } from '../scripts/ensure-built.ts'

describe('web > build freshness', () => {
  let dir: string
  const roots = () => [join(dir, 'src'), join(dir, 'index.html'), join(dir, 'missing.ts')]

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tributary-web-fingerprint-'))
    await mkdir(join(dir, 'src', 'node_modules'), { recursive: true })
    await writeFile(join(dir, 'src', 'main.ts'), 'export {}')
    await writeFile(join(dir, 'index.html'), '<!doctype html>')
  })

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('changes when an input is touched, added or edited, and not otherwise', async () => {
    const first = await fingerprint(roots(), dir)
    expect(await fingerprint(roots(), dir)).toBe(first)

    await writeFile(join(dir, 'src', 'node_modules', 'dep.js'), 'ignored')
    expect(await fingerprint(roots(), dir)).toBe(first)

    const later = new Date(Date.now() + 60_000)
    await utimes(join(dir, 'index.html'), later, later)
    const touched = await fingerprint(roots(), dir)
    expect(touched).not.toBe(first)

    await writeFile(join(dir, 'src', 'view.ts'), 'export {}')
    const added = await fingerprint(roots(), dir)
    expect(added).not.toBe(touched)

    await writeFile(join(dir, 'missing.ts'), 'now present')
    expect(await fingerprint(roots(), dir)).not.toBe(added)
  })
})
