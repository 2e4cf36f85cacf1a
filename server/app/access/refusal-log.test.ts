// The refusal log prints each kind of refusal at most once per 10 s and says how many it left out.
import { expect, it } from 'vitest';
import { RefusalLog } from './refusal-log.ts';

it('prints the first refusal of a kind, holds back repeats for 10 s, then counts them', () => {
  const lines: string[] = [];
  let now = 0;
  const log = new RefusalLog((line) => lines.push(line), () => now);
  log.note('host', 'refused A');
  log.note('host', 'refused B');
  log.note('origin', 'refused C');
  now = 10_000;
  log.note('host', 'refused D');
  expect(lines).toEqual(['pipescope: refused A', 'pipescope: refused C', 'pipescope: refused D (1 more like it not shown)']);
});
