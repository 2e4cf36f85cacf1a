import { describe, expect, it } from 'vitest';
import { hashField, withDisplayFields, withHashFields } from './hash-fields.ts';

describe('hash fields', () => {
  it("keeps the display keys when a view rewrites the hash, and drops the old view's keys", () => {
    expect(withDisplayFields('#command=PING&n=10', '#command=INCR&n=5&t=120&theme=dark')).toBe('#command=PING&n=10&t=120&theme=dark');
    expect(withDisplayFields('#view=sweep&maxDepth=64', '#n=5&zoom=0-10')).toBe('#view=sweep&maxDepth=64&zoom=0-10');
  });

  it('lets the current display value win over one the view writer happened to include', () => {
    expect(withDisplayFields('#n=1&t=5', '#t=9')).toBe('#n=1&t=9');
    expect(withDisplayFields('#n=1&t=5', '#n=2')).toBe('#n=1');
  });

  it('sets and removes single keys in place, keeping the others', () => {
    expect(withHashFields('#command=PING&t=5', { t: '7', theme: 'dark' })).toBe('#command=PING&t=7&theme=dark');
    expect(withHashFields('#t=5', { t: null })).toBe('');
    expect(hashField('#a=1&t=%20x', 't')).toBe(' x');
    expect(hashField('#%E0%A4%A', 't')).toBeNull();
  });
});
