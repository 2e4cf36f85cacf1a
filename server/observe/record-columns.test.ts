import { describe, expect, it } from 'vitest';
import { ChunkColumns, IndexColumn, InternTable, NumberColumn, RingQueue } from './record-columns.ts';

describe('record columns', () => {
  it('number and index columns keep every value through their growth', () => {
    const numbers = new NumberColumn();
    const indexes = new IndexColumn();
    for (let i = 0; i < 1000; i++) {
      numbers.push(i * 1.5 + 2 ** 40);
      indexes.push(i * 3);
    }
    expect(numbers.length).toBe(1000);
    expect(numbers.get(999)).toBe(999 * 1.5 + 2 ** 40);
    expect(numbers.toArray(3)).toEqual([2 ** 40, 1.5 + 2 ** 40, 3 + 2 ** 40]);
    expect(numbers.toArray()).toHaveLength(1000);
    expect(indexes.length).toBe(1000);
    expect(indexes.get(700)).toBe(2100);
  });

  it('an intern table names strings by their text and objects by identity, and says when a value was new', () => {
    const texts = new InternTable<string>();
    expect(texts.indexOf('PING')).toBe(0);
    expect(texts.added).toBe(true);
    expect(texts.indexOf('PING')).toBe(0);
    expect(texts.added).toBe(false);
    expect(texts.indexOf('GET k')).toBe(1);
    expect(texts.indexOf(['PI', 'NG'].join(''))).toBe(0);
    expect(texts.added).toBe(false);
    const objects = new InternTable<{ reply: string }>();
    const a = { reply: 'PONG' };
    expect(objects.indexOf(a)).toBe(0);
    expect(objects.indexOf({ reply: 'PONG' })).toBe(1);
    expect(objects.indexOf(a)).toBe(0);
    expect(objects.get(1)).toEqual({ reply: 'PONG' });
  });

  it('chunk columns give back the chunks as the trace builder takes them', () => {
    const heads = new InternTable<string>();
    const chunks = new ChunkColumns(heads);
    expect(chunks.lastHead).toBe('');
    chunks.push(0, 1400, 100, '*1\\r\\n$4\\r\\nPING');
    chunks.push(12.5, 14, 1, '*1\\r\\n$4\\r\\nPING');
    chunks.push(20, 5, 0, '+OK');
    expect(chunks.length).toBe(3);
    expect(chunks.lastHead).toBe('+OK');
    expect(heads.values).toHaveLength(2);
    expect(chunks.writes()).toEqual([
      { atUs: 0, bytes: 1400, commands: 100, head: '*1\\r\\n$4\\r\\nPING' },
      { atUs: 12.5, bytes: 14, commands: 1, head: '*1\\r\\n$4\\r\\nPING' },
      { atUs: 20, bytes: 5, commands: 0, head: '+OK' },
    ]);
    expect(chunks.reads()[2]).toEqual({ atUs: 20, bytes: 5, replies: 0, head: '+OK' });
  });

  it('a ring queue is first in, first out, across its wrap and its growth', () => {
    const queue = new RingQueue<number>();
    const expected: number[] = [];
    let next = 0;
    // Pushes outpace shifts, so the ring wraps and doubles several times with items in flight.
    for (let step = 0; step < 2000; step++) {
      queue.push(next);
      expected.push(next++);
      if (step % 3 === 0) {
        queue.push(next);
        expected.push(next++);
      }
      if (step % 2 === 0) expect(queue.shift()).toBe(expected.shift());
      expect(queue.peek()).toBe(expected[0]);
      expect(queue.length).toBe(expected.length);
    }
    while (expected.length > 0) expect(queue.shift()).toBe(expected.shift());
    expect(queue.shift()).toBeUndefined();
    expect(queue.peek()).toBeUndefined();
  });
});
