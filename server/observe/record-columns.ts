// Where the observing proxy keeps a connection's record while it grows: typed columns that double when
// full, and tables of the distinct values (command texts, reply outcomes, chunk heads) that the columns
// refer to by index. A pipeline of 100 PINGs then adds numbers to a few arrays that the garbage
// collector never walks, instead of 100 strings and objects to objects it must trace and move. The
// record's document shape (ObservedRecord) is built from them only when a trace is asked for.
import type { ReadEvent, WriteEvent } from '../../trace/format/trace-builder.ts';

const FIRST_CAPACITY = 64;

/** A growable column of numbers (float64: exact for every integer up to 2^53, so byte counts and µs fit). */
export class NumberColumn {
  private data = new Float64Array(FIRST_CAPACITY);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }

  get(index: number): number {
    return this.data[index]!;
  }

  /** The first `count` values (all by default) as a plain array. */
  toArray(count = this.length): number[] {
    return Array.from(this.data.subarray(0, Math.min(count, this.length)));
  }

  /** Bytes a value takes here. */
  static readonly BYTES_PER_VALUE = 8;

  private grow(): void {
    const bigger = new Float64Array(this.data.length * 2);
    bigger.set(this.data);
    this.data = bigger;
  }
}

/** A growable column of table indexes (int32). */
export class IndexColumn {
  private data = new Int32Array(FIRST_CAPACITY);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  get(index: number): number {
    return this.data[index]!;
  }

  static readonly BYTES_PER_VALUE = 4;
}

/**
 * Distinct values, each stored once and named by its index. Strings are told apart by their text,
 * objects by identity (a parser hands on the same frame object for the same bytes). The last value looked
 * up is remembered: a pipeline of one command repeated costs one comparison per command.
 */
export class InternTable<T> {
  readonly values: T[] = [];
  private readonly index = new Map<T, number>();
  private lastValue: T | undefined;
  private lastIndex = -1;

  /** The value's index (`added` says whether it was new, added now). */
  indexOf(value: T): number {
    if (value === this.lastValue && this.lastIndex >= 0) {
      this.added = false;
      return this.lastIndex;
    }
    let at = this.index.get(value);
    if (at === undefined) {
      at = this.values.length;
      this.values.push(value);
      this.index.set(value, at);
      this.added = true;
    } else this.added = false;
    this.lastValue = value;
    this.lastIndex = at;
    return at;
  }

  /** Whether the last indexOf() added its value (false when it was remembered or already there). */
  added = false;

  get(index: number): T {
    return this.values[index]!;
  }
}

/**
 * One direction's chunks at the proxy: when each arrived or was written (µs since t0), its bytes, the
 * commands (or replies) whose last byte it carried, and its head of bytes (an index into `heads`).
 */
export class ChunkColumns {
  private readonly atUs = new NumberColumn();
  private readonly bytes = new NumberColumn();
  private readonly counts = new NumberColumn();
  private readonly headIds = new IndexColumn();

  constructor(private readonly heads: InternTable<string>) {}

  get length(): number {
    return this.atUs.length;
  }

  push(atUs: number, bytes: number, count: number, head: string): void {
    this.atUs.push(atUs);
    this.bytes.push(bytes);
    this.counts.push(count);
    this.headIds.push(this.heads.indexOf(head));
  }

  /** The last chunk's head ("" before any). */
  get lastHead(): string {
    return this.length === 0 ? '' : this.heads.get(this.headIds.get(this.length - 1));
  }

  /** Bytes one chunk takes in the columns. */
  static readonly BYTES_PER_CHUNK = 3 * NumberColumn.BYTES_PER_VALUE + IndexColumn.BYTES_PER_VALUE;

  /** The chunks as the trace builder takes them, the count named `key`. */
  writes(): WriteEvent[] {
    const events: WriteEvent[] = new Array(this.length);
    for (let i = 0; i < this.length; i++) events[i] = { atUs: this.atUs.get(i), bytes: this.bytes.get(i), commands: this.counts.get(i), head: this.heads.get(this.headIds.get(i)) };
    return events;
  }

  reads(): ReadEvent[] {
    const events: ReadEvent[] = new Array(this.length);
    for (let i = 0; i < this.length; i++) events[i] = { atUs: this.atUs.get(i), bytes: this.bytes.get(i), replies: this.counts.get(i), head: this.heads.get(this.headIds.get(i)) };
    return events;
  }
}

/** A first-in, first-out queue on a ring that doubles when full: pushing and shifting allocate nothing. */
export class RingQueue<T> {
  private items: (T | undefined)[] = new Array(FIRST_CAPACITY);
  private head = 0;
  length = 0;

  push(item: T): void {
    if (this.length === this.items.length) {
      const items: (T | undefined)[] = new Array(this.items.length * 2);
      for (let i = 0; i < this.length; i++) items[i] = this.items[(this.head + i) & (this.items.length - 1)];
      this.items = items;
      this.head = 0;
    }
    this.items[(this.head + this.length) & (this.items.length - 1)] = item;
    this.length++;
  }

  /** The oldest item, or undefined when empty. */
  peek(): T | undefined {
    return this.length === 0 ? undefined : this.items[this.head];
  }

  /** Removes the oldest item (returns it). */
  shift(): T | undefined {
    if (this.length === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.length--;
    return item;
  }
}
