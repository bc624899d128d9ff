/**
 * Instrumentation events, KafkaJS-style: `producer.on('producer.send', ({ payload }) => …)`
 * returns a function that removes the listener. An event's payload is built by a callback that
 * only runs when someone listens, so unheard events cost one map lookup.
 */
import { InvalidArgumentError } from './errors.js'

export interface InstrumentationEvent<T> {
  id: number
  type: string
  timestamp: number
  payload: T
}

export type Listener<T> = (event: InstrumentationEvent<T>) => void

export type RemoveListener = () => void

export class Instrumentation<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>()
  private nextId = 0

  constructor(
    private readonly names: ReadonlyArray<keyof Events & string>,
    private readonly onListenerError?: (err: unknown, type: string) => void,
  ) {}

  on<E extends keyof Events & string>(type: E, listener: Listener<Events[E]>): RemoveListener {
    if (!this.names.includes(type)) {
      throw new InvalidArgumentError(`unknown event '${String(type)}'; events are ${this.names.join(', ')}`)
    }
    if (typeof listener !== 'function') throw new InvalidArgumentError(`the listener of '${type}' must be a function`)
    let set = this.listeners.get(type)
    if (set === undefined) {
      set = new Set()
      this.listeners.set(type, set)
    }
    set.add(listener as Listener<never>)
    return () => {
      set.delete(listener as Listener<never>)
      if (set.size === 0 && this.listeners.get(type) === set) this.listeners.delete(type)
    }
  }

  has(type: keyof Events): boolean {
    return this.listeners.has(type)
  }

  /** Builds the payload and calls the listeners, only if there are any. A throwing listener harms no one else. */
  emit<E extends keyof Events & string>(type: E, payload: () => Events[E]): void {
    const set = this.listeners.get(type)
    if (set === undefined) return
    const event: InstrumentationEvent<Events[E]> = {
      id: this.nextId++,
      type,
      timestamp: Date.now(),
      payload: payload(),
    }
    for (const listener of [...set]) {
      try {
        ;(listener as Listener<Events[E]>)(event)
      } catch (err) {
        this.onListenerError?.(err, type)
      }
    }
  }
}
