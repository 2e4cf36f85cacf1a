// The warm-up before t0: the run's own connection does a short run of the same command, in the same
// mode, on throw-away keys in the run's namespace (`<namespace>warmup:…`, deleted after). A fresh
// connection's first commands pay first-call costs (lazy code paths, allocations, the kernel's first
// segments: ~750 µs for the first round trip against ~120 µs for the next, measured here), which would
// otherwise be charged to whichever mode ran first. The trace records it (run.warmup); a cold run
// skips it, to show that cost as a lesson of its own.
import type { CommandName, RunMode } from '../../trace/format/trace-format.ts';
import type { Redis } from 'ioredis';
import type { RunDriver } from '../drivers/run-driver.ts';
import { assertAllowed } from '../protocol/command-guard.ts';
import { workloadFor, type Workload } from '../protocol/run-workload.ts';
import { PLAN_MODES, modePlan } from '../protocol/mode-plan.ts';
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
    const drop = () => {};
    // v3: the same mode as the run, never with its planted error (the warm-up's workload has none).
    const plan = PLAN_MODES.includes(mode) ? modePlan(mode, this.workload, this.commands) : null;
    if (plan) {
      for (const [name, ...args] of plan.setup) {
        assertAllowed(this.namespace, name, args.map(String));
        await control.call(name, ...args);
      }
      await driver.preparePlan?.(plan, cancelled);
      await driver.batches(plan, drop, cancelled);
    } else if (mode === 'auto') await driver.auto(this.workload, this.commands, drop, cancelled);
    else if (this.workload.command === 'GET-COMPUTE-SET') await driver.dependent(this.workload, this.commands, drop, cancelled);
    else if (mode === 'sequential') await driver.sequential(this.workload, this.commands, drop, cancelled);
    else await driver.pipeline(this.workload, this.commands, mode === 'chunked' ? Math.min(chunk, this.commands) : this.commands, drop, cancelled);
    this.durationUs = microsSince(started);
    if (cancelled()) throw new RunCancelledError('Run cancelled');
  }
}
