// Moving one hash slot from one master to another while a run runs, as `redis-cli --cluster reshard`
// does, key by key: CLUSTER SETSLOT <slot> IMPORTING on the new owner, MIGRATING on the old one, then
// CLUSTER GETKEYSINSLOT and MIGRATE … KEYS until the old owner holds none, then CLUSTER SETSLOT <slot>
// NODE on the new owner, the old one and every other master. Meanwhile a client meets ASK (a key already
// moved, the slot still migrating) and then MOVED (the move done). Only on Pipescope's private cluster
// (runs/cluster-reshard.ts refuses it on a user's): it changes the cluster's layout.
//
// Sent on Pipescope's housekeeping connections (one per master), never on the run's. Started at the
// run's t0 with a signal; it returns what it moved and when (µs since t0). Cancelled part-way, it
// still finishes the move without pauses (keys already moved cannot be left half-way): the layout
// is always sane after it, every slot served by one master and none migrating.
import type { Redis } from 'ioredis';
import type { ClusterNode } from '../../trace/format/cluster-format.ts';

/** Keys per MIGRATE: one, key by key, as the move is meant to be seen. */
const KEYS_PER_MIGRATE = 1;
/** GETKEYSINSLOT asks for at most this many keys at a time. */
const KEYS_PER_LISTING = 100;
/** MIGRATE's timeout on loopback, ms. */
const MIGRATE_TIMEOUT_MS = 5_000;
/** A slot holds at most this many keys for a move during a run (bounded: the run's keys are far fewer). */
const MAX_KEYS_MOVED = 100_000;

export interface SlotMove {
  slot: number;
  from: ClusterNode;
  to: ClusterNode;
  /** Every master, the two above included: each is told the slot's new owner. */
  masters: readonly ClusterNode[];
}

/** A moment the move waits for: `ready()` polled every GATE_POLL_MS, for at most `maxMs`. */
export interface SlotMoveGate {
  ready(): boolean;
  maxMs: number;
}

export interface SlotMovePacing {
  /** When the first step goes (e.g. a third of the run's replies in). */
  start: SlotMoveGate;
  /** ms between one key's MIGRATE and the next. */
  betweenKeysMs: number;
  /** How long the slot stays migrating after its last key moved, before SETSLOT NODE (ASK keeps coming then). */
  hold: SlotMoveGate;
}

/** No waiting: a move straight through. */
export const AT_ONCE: SlotMovePacing = { start: { ready: () => true, maxMs: 0 }, betweenKeysMs: 0, hold: { ready: () => true, maxMs: 0 } };

/** How often a gate is polled (ms). */
const GATE_POLL_MS = 1;

async function until(gate: SlotMoveGate, signal: AbortSignal): Promise<void> {
  const deadline = performance.now() + gate.maxMs;
  while (!signal.aborted && !gate.ready() && performance.now() < deadline) await sleep(GATE_POLL_MS, signal);
}

export interface SlotMoveResult {
  slot: number;
  from: string;
  to: string;
  keys: number;
  startedUs: number;
  keysMovedUs?: number;
  doneUs?: number;
  error?: string;
}

const sleep = (ms: number, signal: AbortSignal) =>
  ms <= 0 || signal.aborted ? Promise.resolve() : new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

function hostPort(address: string): [string, number] {
  const colon = address.lastIndexOf(':');
  return [address.slice(0, colon), Number(address.slice(colon + 1))];
}

/**
 * Moves `move.slot` key by key. `connectionOf(address)`: a housekeeping connection to that master;
 * `nowUs()`: µs since the run's t0. An abort skips the remaining pauses; the move is still completed.
 */
export async function moveSlot(
  move: SlotMove,
  connectionOf: (address: string) => Redis,
  nowUs: () => number,
  signal: AbortSignal,
  pacing: SlotMovePacing,
): Promise<SlotMoveResult> {
  const { slot, from, to } = move;
  const source = connectionOf(from.address);
  const target = connectionOf(to.address);
  const [toHost, toPort] = hostPort(to.address);
  await until(pacing.start, signal);
  const result: SlotMoveResult = { slot, from: from.id, to: to.id, keys: 0, startedUs: nowUs() };
  try {
    await target.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', from.id);
    await source.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', to.id);
    for (;;) {
      const keys = (await source.call('CLUSTER', 'GETKEYSINSLOT', slot, KEYS_PER_LISTING)) as string[];
      if (keys.length === 0) break;
      for (let i = 0; i < keys.length; i += KEYS_PER_MIGRATE) {
        if (result.keys > 0) await sleep(pacing.betweenKeysMs, signal);
        const batch = keys.slice(i, i + KEYS_PER_MIGRATE);
        await source.call('MIGRATE', toHost, toPort, '', 0, MIGRATE_TIMEOUT_MS, 'KEYS', ...batch);
        result.keys += batch.length;
      }
      if (result.keys > MAX_KEYS_MOVED) throw new Error(`slot ${slot} holds more than ${MAX_KEYS_MOVED} keys: not moved during a run`);
    }
    result.keysMovedUs = nowUs();
    await until(pacing.hold, signal);
    await setOwner(move, connectionOf);
    result.doneUs = nowUs();
  } catch (error) {
    result.error = (error as Error).message;
    await settle(move, connectionOf, result.keys);
  }
  return result;
}

/** CLUSTER SETSLOT <slot> NODE <new owner> on the new owner first, then the old one, then every other master. */
async function setOwner({ slot, from, to, masters }: SlotMove, connectionOf: (address: string) => Redis): Promise<void> {
  const order = [to, from, ...masters.filter((node) => node.id !== from.id && node.id !== to.id)];
  for (const node of order) await connectionOf(node.address).call('CLUSTER', 'SETSLOT', slot, 'NODE', to.id);
}

/**
 * After a failed step: no key moved yet, the slot goes back to its old owner (its migrating and
 * importing states cleared); keys moved, it goes to the new one. Best effort: a node that cannot be
 * reached (killed) is left to the cluster.
 */
async function settle(move: SlotMove, connectionOf: (address: string) => Redis, moved: number): Promise<void> {
  const owner = moved === 0 ? move.from : move.to;
  for (const node of [move.to, move.from, ...move.masters.filter((m) => m.id !== move.from.id && m.id !== move.to.id)]) {
    await connectionOf(node.address).call('CLUSTER', 'SETSLOT', move.slot, 'NODE', owner.id).catch(() => undefined);
  }
}
