// The warm-up before t0: the run's own connection does a short run of the same command, in the same
// mode, on throw-away keys in the run's namespace (`<namespace>warmup:…`, deleted after). A fresh
// connection's first commands pay first-call costs (lazy code paths, allocations, the kernel's first
// segments: ~750 µs for the first round trip against ~120 µs for the next, measured here), which would
// otherwise be charged to whichever mode ran first. The trace records it (run.warmup); a cold run
// skips it, to show that cost as a lesson of its own.
//
// The hot start: the bulk of the warm-up runs early, but its last few round trips (the tail) run at
// the very end of the set-up, after every probe is attached and after the run's first INFO snapshot,
// so nothing idles between them and t0. An idle gap of a millisecond before t0 made the first round
// trip 4× a steady one here, 50 ms 13×: the cost of waking an idle Redis (and, on this VM, its halted
// vCPU), then the client; an INFO between the tail and t0 still left 1.8×. The tail sends the run's
// command's twin, which Redis runs by the same code but counts under another name in INFO
// commandstats, so the run's service time (execUs) holds nothing of it: INCR → INCRBY key 1, GET →
// GETRANGE key 0 -1, SET → SETEX key 86400 value, PING → ECHO PONG (a GET-COMPUTE-SET step: GETRANGE,
// then SETEX). Its round trips, commands, and Redis's read and write events are known exactly and
// taken out of the run's INFO deltas; its MONITOR lines precede the run's; its socket events are
// dropped. Measured: INCRBY before an INCR run left first ÷ steady as low as INCR itself did.
import type { CommandName, RunMode } from '../../trace/format/trace-format.ts';
import type { Redis } from 'ioredis';
import type { RunDriver } from '../drivers/run-driver.ts';
import type { Outcome } from '../../trace/format/trace-builder.ts';
import { assertAllowed } from '../protocol/command-guard.ts';
import { workloadFor, type Workload } from '../protocol/run-workload.ts';
import { PLAN_MODES, modePlan, type WireCommand, type WirePlan } from '../protocol/mode-plan.ts';
import { microsSince } from '../support/monotonic-clock.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';

/** A warm-up takes at most about this long (µs of round trips), however slow the link. */
export const WARMUP_BUDGET_US = 200_000;

/**
 * Warm-up commands for a run: `wanted` (min(n, 1,000) unless cold), cut so that its round trips fit
 * WARMUP_BUDGET_US at the measured RTT (at 250 ms a sequential warm-up is one command, not 1,000).
 */
export function warmupSize(mode: RunMode, n: number, chunk: number, wanted: number, rttUs: number, command?: CommandName): number {
  if (wanted <= 0) return 0;
  // v3: the other modes send everything in one round trip (multi, eval, evalsha, multikey, auto); a
  // sequential GET-COMPUTE-SET takes two per operation.
  const perRoundTrip = mode === 'sequential' ? (command === 'GET-COMPUTE-SET' ? 0.5 : 1) : mode === 'chunked' ? Math.min(chunk, n) : wanted;
  const roundTrips = Math.max(1, Math.floor(WARMUP_BUDGET_US / Math.max(1, rttUs)));
  return Math.max(1, Math.min(wanted, Math.floor(roundTrips * perRoundTrip)));
}

/** The tail's sequential round trips of the run's command. */
export const TAIL_ROUND_TRIPS = 3;
/** No tail at or above this RTT (µs): the first round trip's extra cost is small beside the round trip. */
export const TAIL_BELOW_RTT_US = 5_000;
/** The tail adds one batch in the run's mode only when a batch is this small (commands). */
export const TAIL_BATCH_COMMANDS = 64;
/** Bytes a message of the tail (a request, a reply, the batch) may take: one read and one write for Redis. */
export const TAIL_MESSAGE_BYTES = 16 * 1024;
/** Bytes one operation puts in a message besides its value, at most (RESP framing, the key). */
const OPERATION_BYTES = 96;

export interface TailPlan {
  /** Operations sent one at a time, each awaited (a GET-COMPUTE-SET step is two round trips). */
  steps: number;
  /** Operations in the one batch after them, written at once (0: none). */
  batch: number;
  /** Round trips in all, and wire commands in all (as the trace's run.warmup.tail records them). */
  roundTrips: number;
  commands: number;
}

const NO_TAIL: TailPlan = { steps: 0, batch: 0, roundTrips: 0, commands: 0 };

/**
 * The tail of a warm-up of `warmed` operations for a run: TAIL_ROUND_TRIPS sequential round trips, then,
 * for a run that writes its commands together, one batch of as many as the run writes at once when that
 * is small; nothing for a cold run, a slow link, or messages over `messageBytes` (one read and one write
 * event for Redis each; the kernel's TCP figures ask for one segment each: TAIL_SEGMENT_BYTES).
 */
export function tailPlan(mode: RunMode, command: CommandName, operations: number, chunk: number, warmed: number, valueBytes: number, rttUs: number, messageBytes = TAIL_MESSAGE_BYTES): TailPlan {
  if (warmed <= 0 || rttUs >= TAIL_BELOW_RTT_US || valueBytes + OPERATION_BYTES > messageBytes) return NO_TAIL;
  const perStep = command === 'GET-COMPUTE-SET' ? 2 : 1;
  const steps = Math.ceil(TAIL_ROUND_TRIPS / perStep);
  const size = mode === 'sequential' || command === 'GET-COMPUTE-SET' ? 0 : Math.min(warmed, mode === 'chunked' ? chunk : operations);
  const batch = size > 1 && size <= TAIL_BATCH_COMMANDS && size * (valueBytes + OPERATION_BYTES) <= messageBytes ? size : 0;
  return { steps, batch, roundTrips: steps * perStep + (batch > 0 ? 1 : 0), commands: steps * perStep + batch };
}

/** The twin of operation i of `workload` (see the top): same code in Redis, another name in its commandstats. */
export function tailCommands(workload: Workload, i: number): WireCommand[] {
  const args = workload.argsFor(i);
  switch (workload.command) {
    case 'PING':
      return [['ECHO', 'PONG']];
    case 'INCR':
      return [['INCRBY', args[0]!, '1']];
    case 'GET':
      return [['GETRANGE', args[0]!, '0', '-1']];
    case 'SET':
      return [['SETEX', args[0]!, '86400', args[1]!]];
    case 'GET-COMPUTE-SET':
      return [['GETRANGE', args[0]!, '0', '-1'], ['SETEX', args[0]!, '86400', '1']];
  }
}

/** Replies of a command Redis refused without running it: ACL, or a command it does not know. */
const REFUSED = /^(NOPERM|ERR unknown command)/;

export class Warmup {
  readonly workload: Workload;
  /** Commands handed to the driver: every key beyond these cannot exist. */
  written = 0;
  durationUs = 0;

  constructor(
    command: CommandName,
    private readonly namespace: string,
    valueBytes: number,
    readonly commands: number,
  ) {
    this.workload = workloadFor(command, `${namespace}warmup:`, valueBytes);
  }

  /** Runs the warm-up on the run's driver; its replies are read and dropped. */
  async run(driver: RunDriver, control: Redis, mode: RunMode, chunk: number, signal?: AbortSignal): Promise<void> {
    for (const [name, ...args] of this.workload.setup) {
      assertAllowed(this.namespace, name, args.map(String));
      await control.call(name, ...args);
    }
    const cancelled = () => signal?.aborted === true;
    const started = process.hrtime.bigint();
    if (mode !== 'auto' && this.workload.command !== 'GET-COMPUTE-SET' && !PLAN_MODES.includes(mode)) await driver.prepare(this.workload, this.commands, cancelled);
    this.written = this.commands;
    // v3: the same mode as the run, never with its planted error (the warm-up's workload has none).
    const plan = PLAN_MODES.includes(mode) ? modePlan(mode, this.workload, this.commands) : null;
    for (const [name, ...args] of plan?.setup ?? []) {
      assertAllowed(this.namespace, name, args.map(String));
      await control.call(name, ...args);
    }
    if (plan) await driver.preparePlan?.(plan, cancelled);
    await this.send(driver, mode, this.commands, mode === 'chunked' ? Math.min(chunk, this.commands) : this.commands, plan, cancelled);
    this.durationUs = microsSince(started);
    if (cancelled()) throw new RunCancelledError('Run cancelled');
  }

  /**
   * The tail (see the top), on the warm-up's keys, right before t0: each step's commands one at a time,
   * then the batch at once; replies read and dropped. Through batches(), which prepares nothing for the
   * run: the raw engine keeps the run's own encoding. Returns how many of its commands Redis refused
   * unrun (a user whose ACL predates the twins, a renamed command): no MONITOR line, no INFO count.
   */
  async tail(driver: RunDriver, { steps, batch }: TailPlan, signal?: AbortSignal): Promise<number> {
    const cancelled = () => signal?.aborted === true;
    const batches: WireCommand[][] = [];
    for (let i = 0; i < steps; i++) for (const command of tailCommands(this.workload, i % this.commands)) batches.push([command]);
    if (batch > 0) batches.push(Array.from({ length: batch }, (_, i) => tailCommands(this.workload, i)[0]!));
    for (const commands of batches) for (const [name, ...args] of commands) assertAllowed(this.namespace, name, args.map((arg) => (typeof arg === 'string' ? arg : '<bytes>')));
    this.written = Math.max(this.written, Math.min(steps, this.commands), batch);
    const total = batches.reduce((sum, commands) => sum + commands.length, 0);
    let refused = 0;
    const count = (outcome: Outcome) => ('error' in outcome && REFUSED.test(outcome.error) ? refused++ : 0);
    await driver.batches({ total, setup: [], batches: () => batches }, count, cancelled);
    if (cancelled()) throw new RunCancelledError('Run cancelled');
    return refused;
  }

  /** `count` operations in `mode` (`plan` for the plan modes), `chunk` per pipeline; replies dropped. */
  private async send(driver: RunDriver, mode: RunMode, count: number, chunk: number, plan: WirePlan | null, cancelled: () => boolean): Promise<void> {
    const drop = () => {};
    if (plan) await driver.batches(plan, drop, cancelled);
    else if (mode === 'auto') await driver.auto(this.workload, count, drop, cancelled);
    else if (this.workload.command === 'GET-COMPUTE-SET') await driver.dependent(this.workload, count, drop, cancelled);
    else if (mode === 'sequential') await driver.sequential(this.workload, count, drop, cancelled);
    else await driver.pipeline(this.workload, count, chunk, drop, cancelled);
  }
}
