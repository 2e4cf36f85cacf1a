// The wire view's words for what one socket write or read (or one Redis read()/write()) carried:
// "commands 0–9", "reply 3", "part of command 4", "part of a reply". The indices come from the model
// (model/wire-rows.ts); only the wording lives here. Pure, so it is unit-tested.
import type { WireCarried } from '../model/wire-rows.ts';
import { formatCount } from './number-format.ts';

const WORDS = { command: ['command', 'commands'], reply: ['reply', 'replies'] } as const;

/** The text of a row's "carried" column; "" when nothing can be said (the view shows a dash). */
export function carriedText(carried: WireCarried | null): string {
  if (!carried) return '';
  const [one, many] = WORDS[carried.unit];
  const { first, count } = carried;
  if (first === null) return `part of a ${one}`;
  if (count === 0) return `part of ${one} ${formatCount(first)}`;
  return count === 1 ? `${one} ${formatCount(first)}` : `${many} ${formatCount(first)}–${formatCount(first + count - 1)}`;
}
