// A resharding run on Pipescope's private cluster (run option `reshard`): which slot moves where, when,
// and what each reply should have been. The slot is the one holding most of the run's keys (ties: the
// one whose first command comes nearest the middle of the run); it moves to the next master in slot
// order. The move (redis/slot-migration.ts) starts at t0 and is paced by the run's progress, so that
// the run meets its ASKs and then its MOVEDs while it runs: a third of its replies in before the move,
// the slot held migrating until two thirds are (each wait bounded). After the run's clean-up the slot is moved back, so the
// private cluster keeps the layout it was formed with (and every session's topology stays true).
//
// The check: a GET run's key holds the workload's value, written before t0 (its set-up, under the
// run's namespace); each reply is compared with it, a SET's with OK. Any engine can use this: it needs
// the run's split, its expected length and its replies.
import type { ClusterNode, Reshard } from '../../trace/format/cluster-format.ts';
import type { ReplyValue } from '../../trace/format/trace-format.ts';
import type { ClusterSplit } from '../drivers/cluster-split.ts';
import { makeValue } from '../protocol/run-workload.ts';
import { previewReply } from '../protocol/reply-preview.ts';
import type { SlotMove, SlotMovePacing } from '../redis/slot-migration.ts';
import type { RunPlan } from './run/run-plan.ts';

/** The slot of the run's keys that moves, from its master to the next one. */
/** `split`: the run's masters and each command's slot (null or undefined: no key, or keys of several slots). */
export function reshardMove(split: { masters: ClusterSplit['masters']; slots: readonly (number | null | undefined)[] }): SlotMove {
  const counts = new Map<number, { keys: number; first: number }>();
  split.slots.forEach((slot, i) => {
    if (slot === undefined || slot === null) return;
    const seen = counts.get(slot);
    if (seen) seen.keys++;
    else counts.set(slot, { keys: 1, first: i });
  });
  if (counts.size === 0) throw new Error('a resharding run needs commands with keys');
  const middle = split.slots.length / 2;
  let best: [number, { keys: number; first: number }] | undefined;
  for (const entry of counts) {
    if (!best || entry[1].keys > best[1].keys || (entry[1].keys === best[1].keys && Math.abs(entry[1].first - middle) < Math.abs(best[1].first - middle))) best = entry;
  }
  const slot = best![0];
  const masters = split.masters;
  const owner = masters.findIndex((node) => node.slots.some(([first, last]) => first <= slot && slot <= last));
  if (owner < 0) throw new Error(`slot ${slot} is served by no master`);
  const from: ClusterNode = masters[owner]!;
  const to: ClusterNode = masters[(owner + 1) % masters.length]!;
  return { slot, from, to, masters };
}

/**
 * The move's timing, from the run's progress (`answered()`: its commands with their final reply, of
 * `operations`): it starts once a third are in, and holds the slot migrating until two thirds are, each
 * wait bounded by the run's expected length (`expectedUs`) so that a stalled run never holds the slot.
 */
export function reshardPacing(answered: () => number, operations: number, expectedUs: number): SlotMovePacing {
  const maxMs = Math.min(5_000, Math.max(1, expectedUs / 1000));
  return {
    start: { ready: () => answered() >= operations / 3, maxMs },
    betweenKeysMs: 0,
    hold: { ready: () => answered() >= (2 * operations) / 3, maxMs },
  };
}

/** The run's expected length: sequential, a round trip per command; a pipeline, one round trip and ~1 µs per command. */
export function expectedRunUs(plan: RunPlan, rttUs: number): number {
  return plan.mode === 'sequential' ? plan.workload.operations * rttUs : rttUs + plan.workload.operations;
}

/** What each reply must be: the value stored before the run (GET), or OK (SET). */
export function expectedAnswer(plan: RunPlan): ReplyValue {
  if (plan.workload.command === 'GET') return previewReply(makeValue(plan.workload.valueBytes));
  if (plan.workload.command === 'SET') return 'OK';
  throw new Error(`reshard checks GET and SET runs, not ${plan.workload.command}`);
}

/** A move's record in the trace, with the run's check. */
export function reshardRecord(move: Omit<Reshard, 'checked' | 'wrong'>, checked: number, wrong: number): Reshard {
  return { ...move, checked, wrong };
}
