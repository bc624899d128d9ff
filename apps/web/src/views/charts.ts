/**
 * Throughput (records/s appended per topic, from successive high watermarks) and consumer lag
 * (per group) over time, drawn with uPlot. Each chart is rebuilt when its set of lines changes
 * and otherwise fed new data.
 */
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { h } from '../dom.js'
import type { Series } from '../series.js'

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777']

export class Chart {
  private plot: uPlot | undefined
  private names: string[] = []
  readonly element: HTMLElement
  private readonly body: HTMLElement
  private readonly legend: HTMLElement

  constructor(
    private readonly title: string,
    private readonly unit: string,
    testId: string,
  ) {
    this.body = h('div', { class: 'chart-body' })
    this.legend = h('p', { class: 'chart-latest', 'data-testid': `${testId}-latest` })
    this.element = h(
      'figure',
      { class: 'chart', 'data-testid': testId },
      h('figcaption', {}, title),
      this.body,
      this.legend,
    )
  }

  update(series: Series, width: number): void {
    const names = series.names()
    this.legend.replaceChildren(
      ...(names.length === 0
        ? ['no data yet']
        : names.map((n) =>
            h(
              'span',
              {
                class: 'chart-line',
                'data-line': n,
                'data-latest': series.latest(n) ?? '',
                'data-peak': series.peak(n) ?? '',
              },
              `${n}: now ${format(series.latest(n))}, peak ${format(series.peak(n))} ${this.unit}`,
            ),
          )),
    )
    if (series.times.length < 2 || names.length === 0) return
    if (this.plot === undefined || names.join('\0') !== this.names.join('\0')) {
      this.plot?.destroy()
      this.names = names
      this.plot = new uPlot(
        {
          width: Math.max(320, width),
          height: 240,
          title: undefined,
          scales: { x: { time: true }, y: { range: (_u, min, max) => [0, Math.max(1, max, min)] } },
          axes: [{}, { label: this.unit }],
          series: [{}, ...names.map((name, i) => ({ label: name, stroke: COLORS[i % COLORS.length], width: 2 }))],
        },
        series.data(),
        this.body,
      )
    } else {
      this.plot.setData(series.data())
      if (this.plot.width !== Math.max(320, width)) this.plot.setSize({ width: Math.max(320, width), height: 240 })
    }
  }

  get name(): string {
    return this.title
  }
}

function format(value: number | null): string {
  if (value === null) return '—'
  return value >= 100 ? value.toFixed(0) : value.toFixed(1)
}
