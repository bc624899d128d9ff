/**
 * The CLI's input and output pieces on their own: option parsers, stdin lines (groups, limits,
 * CR/LF, bytes), lines → records, record formatting, perf figures, and how the peer is found.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { InvalidArgumentError } from 'commander'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LineTooLongError, lineGroups } from '../src/commands/line-reader.ts'
import { formatJson, formatText } from '../src/commands/message-format.ts'
import { table } from '../src/commands/output.ts'
import * as parse from '../src/commands/parse.ts'
import { findPeer, NoPeerError, peerOption } from '../src/commands/peer-address.ts'
import { MAX_LATENCY_SAMPLES, ProduceStats, percentile } from '../src/commands/perf-stats.ts'
import { linesToMessages, MissingKeySeparatorError } from '../src/commands/records.ts'

async function collect(input: Readable, maxLines = 1000, maxLineBytes = 1000): Promise<string[][]> {
  const groups: string[][] = []
  for await (const g of lineGroups(input, { maxLines, maxLineBytes })) groups.push(g.map((b) => b.toString()))
  return groups
}

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-cli-input-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('cli > option parsers', () => {
  it('accepts what the help promises and rejects the rest with a reason', () => {
    expect(parse.acks('all')).toBe('all')
    expect(parse.acks('-1')).toBe('all')
    expect(parse.acks('0')).toBe(0)
    expect(() => parse.acks('2')).toThrow(InvalidArgumentError)
    expect(parse.offset('earliest')).toBe('earliest')
    expect(parse.offset('42')).toBe(42)
    for (const bad of ['-1', '1.5', 'soon', '', '99999999999999999999'])
      expect(() => parse.offset(bad), bad).toThrow(InvalidArgumentError)
    expect(parse.partition('0')).toBe(0)
    for (const bad of ['-1', 'x', '', '1e3', '0.5'])
      expect(() => parse.partition(bad), bad).toThrow(InvalidArgumentError)
    expect(() => parse.positiveCount('0')).toThrow(InvalidArgumentError)
    expect(parse.throughput('-1')).toBe(-1)
    expect(() => parse.throughput('0')).toThrow(InvalidArgumentError)
    expect(parse.format('json')).toBe('json')
    expect(() => parse.format('xml')).toThrow(InvalidArgumentError)
    expect(() => parse.topicName('has space')).toThrow(InvalidArgumentError)
    expect(() => parse.topicName('..')).toThrow(InvalidArgumentError)
    expect(parse.topicName('orders.v2_x-1')).toBe('orders.v2_x-1')
  })

  it('reads --headers, --config and separators', () => {
    expect(parse.headers('a=1,b=,c=x=y')).toEqual({ a: '1', b: '', c: 'x=y' })
    expect(() => parse.headers('a=1,novalue')).toThrow(/not key=value/)
    expect(() => parse.headers('=1')).toThrow(InvalidArgumentError)
    expect(() => parse.headers(Array.from({ length: parse.MAX_HEADERS + 1 }, (_, i) => `h${i}=1`).join(','))).toThrow(
      /at most/,
    )
    expect(parse.config('retention.ms=5', parse.config('cleanup.policy=compact'))).toEqual({
      'cleanup.policy': 'compact',
      'retention.ms': '5',
    })
    expect(() => parse.config('retention.ms')).toThrow(InvalidArgumentError)
    expect(parse.separator('\\t')).toBe('\t')
    expect(parse.separator('::')).toBe('::')
    expect(() => parse.separator('')).toThrow(InvalidArgumentError)
    expect(() => parse.separator('\\n')).toThrow(/newline/)
    expect(peerOption('/ip4/127.0.0.1/tcp/1/p2p/x,/ip4/127.0.0.1/tcp/2/p2p/y')).toHaveLength(2)
    expect(() => peerOption('127.0.0.1:4001')).toThrow(/multiaddr/)
  })
})

describe('cli > stdin lines', () => {
  it('splits lines across chunks, drops CR, keeps empty lines and a last line without newline', async () => {
    const input = Readable.from([Buffer.from('a\r\nb'), Buffer.from('c\n\n'), Buffer.from('d\ne')])
    expect((await collect(input)).flat()).toEqual(['a', 'bc', '', 'd', 'e'])
  })

  it('hands out at most maxLines per group, each group as soon as its chunk arrived', async () => {
    const lines = Array.from({ length: 25 }, (_, i) => `l${i}`)
    const groups = await collect(Readable.from([Buffer.from(`${lines.join('\n')}\n`)]), 10)
    expect(groups.map((g) => g.length)).toEqual([10, 10, 5])
    expect(groups.flat()).toEqual(lines)
  })

  it('keeps bytes as they are (values need not be UTF-8)', async () => {
    const bytes = Buffer.from([0xff, 0x00, 0xfe, 0x0a, 0x41])
    const got: Buffer[] = []
    for await (const g of lineGroups(Readable.from([bytes]), { maxLines: 10, maxLineBytes: 10 })) got.push(...g)
    expect(got.map((b) => [...b])).toEqual([[0xff, 0x00, 0xfe], [0x41]])
  })

  it('stops at an over-long line after handing out the lines before it', async () => {
    const input = Readable.from([Buffer.from('ok1\nok2\n'), Buffer.from('x'.repeat(30)), Buffer.from('x'.repeat(30))])
    const groups: string[] = []
    const err = await (async () => {
      for await (const g of lineGroups(input, { maxLines: 100, maxLineBytes: 50 })) groups.push(...g.map(String))
    })().catch((e: unknown) => e)
    expect(groups).toEqual(['ok1', 'ok2'])
    expect(err).toBeInstanceOf(LineTooLongError)
    expect((err as LineTooLongError).lineNumber).toBe(3)
  })
})

describe('cli > lines to records', () => {
  const shape = { keySeparator: Buffer.from('::'), headers: { h: '1' }, partition: 2 }

  it('splits at the first separator and applies headers and partition to every record', () => {
    const { messages, error } = linesToMessages([Buffer.from('k::v::w'), Buffer.from('::empty key')], 1, shape)
    expect(error).toBeUndefined()
    expect(messages.map((m) => [String(m.key), String(m.value), m.partition, m.headers])).toEqual([
      ['k', 'v::w', 2, { h: '1' }],
      ['', 'empty key', 2, { h: '1' }],
    ])
  })

  it('without a separator, the whole line is the value and the key null', () => {
    const { messages } = linesToMessages([Buffer.from('a::b')], 1, { ...shape, keySeparator: undefined })
    expect(messages[0]!.key).toBeNull()
    expect(String(messages[0]!.value)).toBe('a::b')
  })

  it('stops at a line without the separator, keeping the lines before it', () => {
    const { messages, error } = linesToMessages(
      [Buffer.from('a::1'), Buffer.from('no sep'), Buffer.from('b::2')],
      41,
      shape,
    )
    expect(messages).toHaveLength(1)
    expect(error).toBeInstanceOf(MissingKeySeparatorError)
    expect(error!.message).toMatch(/line 42/)
  })
})

describe('cli > record output', () => {
  const message = {
    key: Buffer.from('k'),
    value: Buffer.from('héllo'),
    headers: { a: Buffer.from('1'), n: null, r: [Buffer.from('x'), Buffer.from('y')] },
    timestamp: '1700000000000',
    offset: '9007199254740993',
  }

  it('prints json with numbers where exact and strings beyond 2^53', () => {
    expect(JSON.parse(formatJson('t', 3, message))).toEqual({
      topic: 't',
      partition: 3,
      offset: '9007199254740993',
      timestamp: 1700000000000,
      key: 'k',
      value: 'héllo',
      headers: { a: '1', n: null, r: ['x', 'y'] },
    })
  })

  it('prints text as the value, or key, separator and value; null as null', () => {
    expect(formatText(message, { printKey: false, keySeparator: '\t' })).toBe('héllo')
    expect(formatText({ ...message, key: null }, { printKey: true, keySeparator: ':' })).toBe('null:héllo')
    expect(table(['A', 'Bee'], [['long cell', 'x']])).toBe('A          Bee\nlong cell  x')
  })
})

describe('cli > perf figures', () => {
  it('computes throughput and nearest-rank percentiles of the latencies', () => {
    const stats = new ProduceStats(1000, 0)
    for (let i = 1; i <= 1000; i++) stats.record(1, 100, i)
    const f = stats.final(2000)
    expect(f.records).toBe(1000)
    expect(f.records_per_s).toBe(500)
    expect(f.mb_per_s).toBeCloseTo(100_000 / 2 ** 20 / 2, 2)
    expect(f.latency_avg_ms).toBe(500.5)
    expect(f.latency_max_ms).toBe(1000)
    expect(f.latency_p50_ms).toBe(501)
    expect(f.latency_p99_ms).toBe(991)
    expect(f.latency_p999_ms).toBe(1000)
  })

  it('keeps a bounded number of latency samples for any record count', () => {
    const records = MAX_LATENCY_SAMPLES * 4
    const stats = new ProduceStats(records, 0)
    for (let i = 0; i < records / 1000; i++) stats.record(1000, 100_000, i)
    expect(stats.final(1000).records).toBe(records)
    expect(percentile(new Float64Array([3, 1, 2]).sort(), 0.5)).toBe(2)
  })

  it('reports windows and starts a new one each time', () => {
    const stats = new ProduceStats(10, 0)
    stats.record(4, 400, 10)
    expect(stats.takeWindow(1000).figures.records).toBe(4)
    expect(stats.takeWindow(2000).figures.records).toBe(0)
  })
})

describe('cli > finding the peer', () => {
  it('takes --peer, then TRIBUTARY_PEER, then <data>/peer.json (TCP first)', async () => {
    const dir = join(root, 'found')
    await rm(dir, { recursive: true, force: true })
    const { mkdir } = await import('node:fs/promises')
    await mkdir(dir, { recursive: true })
    const ws = '/ip4/127.0.0.1/tcp/2/ws/p2p/x'
    const tcp = '/ip4/127.0.0.1/tcp/1/p2p/x'
    await writeFile(
      join(dir, 'peer.json'),
      JSON.stringify({ peerId: 'x', addresses: [ws, tcp], httpPort: 1, pid: process.pid }),
    )
    expect((await findPeer({ peer: ['/a'], data: dir, env: { TRIBUTARY_PEER: '/b' } })).addresses).toEqual(['/a'])
    expect((await findPeer({ data: dir, env: { TRIBUTARY_PEER: '/b,/c' } })).addresses).toEqual(['/b', '/c'])
    expect((await findPeer({ data: dir, env: {} })).addresses).toEqual([tcp, ws])
    await expect(findPeer({ data: dir, env: { TRIBUTARY_PEER: 'localhost:4001' } })).rejects.toThrow(/not a multiaddr/)
  })

  it('says how to start a peer when there is no peer.json, or its peer is gone', async () => {
    const none = findPeer({ data: join(root, 'nothing-here'), env: {} })
    await expect(none).rejects.toBeInstanceOf(NoPeerError)
    await expect(none).rejects.toThrow(/npx tributary peer start/)
    const dir = join(root, 'stale')
    const { mkdir } = await import('node:fs/promises')
    await mkdir(dir, { recursive: true })
    // A pid above the kernel's limit (pid_max ≤ 2^22) cannot be running.
    await writeFile(
      join(dir, 'peer.json'),
      JSON.stringify({ peerId: 'x', addresses: ['/ip4/127.0.0.1/tcp/1/p2p/x'], httpPort: 1, pid: 2 ** 22 + 1 }),
    )
    await expect(findPeer({ data: dir, env: {} })).rejects.toThrow(
      /is not running; start one with `npx tributary peer start`/,
    )
  })
})
