// The wire view's words for what one socket write or read (or one Redis read()/write()) carried:
// "commands 1–10", "reply 3", "part of command 4", "part of a reply". The indices come from the model
// (model/wire-rows.ts, from 0); the words number from 1, as the tooltip and every count on screen do.
// Pure, so it is unit-tested.
import type { WireCarried } from '../model/wire-rows.ts';
import { formatCount } from './number-format.ts';

const WORDS = { command: ['command', 'commands'], reply: ['reply', 'replies'] } as const;

/** Names listed at most in one row before the rest is summed up. */
const MAX_NAMED = 4;

/**
 * The wire commands of indexes [first, first + count) by name, runs of one name folded:
 * "MULTI, INCR ×10, EXEC", "GET, SET, GET, SET, …". nameAt gives the wire command at an index (wire-layout.ts).
 */
export function wireNames(first: number, count: number, nameAt: (index: number) => string): string {
  const runs: { name: string; count: number }[] = [];
  for (let i = first; i < first + count; i++) {
    const name = nameAt(i);
    const last = runs.at(-1);
    if (last?.name === name) last.count++;
    else if (runs.length > MAX_NAMED) return `${runs.map(run).join(', ')}, …`;
    else runs.push({ name, count: 1 });
  }
  return runs.map(run).join(', ');
}

const run = (r: { name: string; count: number }) => (r.count === 1 ? r.name : `${r.name} ×${formatCount(r.count)}`);

/**
 * The text of a row's "carried" column; "" when nothing can be said (the view shows a dash). With
 * nameAt (runs whose wire differs from their workload), the wire commands carried are named too.
 */
export function carriedText(carried: WireCarried | null, nameAt?: (index: number) => string): string {
  if (!carried) return '';
  const [one, many] = WORDS[carried.unit];
  const { first, count } = carried;
  if (first === null) return `part of a ${one}`;
  const nth = (index: number) => formatCount(index + 1); // the user's count, from 1
  if (count === 0) return `part of ${one} ${nth(first)}${nameAt ? ` (${nameAt(first)})` : ''}`;
  const names = nameAt ? `: ${wireNames(first, count, nameAt)}` : '';
  return count === 1 ? `${one} ${nth(first)}${names}` : `${many} ${nth(first)}–${nth(first + count - 1)}${names}`;
}
