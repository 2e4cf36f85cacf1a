// Around each run (run-executor.ts executeRun): what keeps a run from hanging, from outliving its
// welcome, and from leaving keys behind.
//  - Before it: the previous run's background clean-up has ended (background-work.ts, bounded); Redis
//    answers a PING on the control connection (CONTROL_COMMAND_TIMEOUT_MS), else the run does not
//    start and the page hears "Redis is not answering"; the run's lease is taken (run-lease.ts).
//  - During it: a watchdog. Set-up must end within SETUP_TIMEOUT_MS (+ a little per command); the
//    measurement (t0 to the end of the post-run probes) within its deadline, twice what the run is
//    expected to take plus MEASURE_SLACK_US, extended while replies still come (a slow machine is not a
//    silent Redis); and while commands are outstanding, a reply must come
//    within STALL_MS (+ twice the added RTT and jitter, + the chunk pause), counted from when commands
//    became outstanding and without the time this process was too busy to read (a late tick). It checks
//    once a second (a timer, no Redis traffic). On expiry the run stops as a Cancel stops it (its socket
//    destroyed) and fails with words (RedisNotAnsweringError), which the page shows in its banner too.
//  - A Cancel, a time limit or the watchdog: the run answers within CANCEL_GRACE_MS whatever Redis
//    does; the events measured until then have been sent (or are dropped: nothing of the run is sent
//    after its answer), and its clean-up carries on in the background.
//  - The hooks the executor calls around its INFO snapshots open and close the measurement window
//    (measurement-window.ts) and extend the lease over it: nothing of the lease or the watchdog
//    reaches Redis between t0 and the last reply.
import type { ProbeBatch, TraceHeader } from '../../trace/format/trace-builder.ts';
import type { CommandName, RunMode } from '../../trace/format/trace-format.ts';
import { expectedRunUs } from '../../trace/format/run-duration.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { CONTROL_COMMAND_TIMEOUT_MS } from '../redis/redis-session.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { RedisNotAnsweringError, RequestTimeLimitError } from '../support/run-stopped-errors.ts';
import { durationText } from '../support/duration-text.ts';
import { backgroundSettled, carryOn } from './background-work.ts';
import { openMeasurementWindow } from './measurement-window.ts';
import { RunLease } from './run-lease.ts';
import { expectedClusterErrors, refuseOnCluster } from './cluster-refusal.ts';
import { ReplyRefusals } from './refused-replies.ts';
import { newRunId } from './run-id.ts';

/** Set-up (connect, RTT, warm-up, probes, the first INFO) may take this long (ms), plus SETUP_US_PER_COMMAND per command. */
export const SETUP_TIMEOUT_MS = 30_000;
const SETUP_US_PER_COMMAND = 10;
/** Beyond twice its expected time, a run's measurement may take this much more (µs): post-run probes, a busy machine. */
export const MEASURE_SLACK_US = 30_000_000;
/** Per command beyond the expected (µs): big values, a slow engine. */
const MEASURE_US_PER_COMMAND = 20;
/** With commands outstanding, no reply for this long (ms) means Redis is not answering. */
export const STALL_MS = 10_000;
/** After the end of the measurement: the trace assembled and the keys deleted within this (ms). */
const FINISH_TIMEOUT_MS = 120_000;
/** A stopped run answers within this (ms) of being stopped, its last events sent if they came by then. */
export const CANCEL_GRACE_MS = 25;
const WATCH_INTERVAL_MS = 1_000;

/** The executor's calls around its INFO snapshots and after its clean-up. */
export interface RunHooks {
  /** Before the first INFO snapshot: nothing of Pipescope's own reaches Redis from here… */
  measuring(): Promise<void>;
  /** After the last reply and the last batch: throws if Redis refused commands the run did not plant (refused-replies.ts). */
  replied(): void;
  /** …to here, after the last snapshot and the server-side probes. */
  measured(): void;
  /** After the clean-up: `keysGone` when the run's keys were deleted. */
  cleaned(keysGone: boolean): Promise<void>;
}

interface Listener<E> {
  onStart?(header: TraceHeader): void;
  onBatch?(runId: string, batch: ProbeBatch): void;
  onEnd?(runId: string, end: E): void;
}

/** What the watchdog needs to know of a run. */
export interface RunShape {
  command: CommandName;
  n: number;
  rttMs?: number | undefined;
  jitterMs?: number | undefined;
  chunk?: number | undefined;
  chunkPauseMs?: number | undefined;
  errorAt?: number | undefined;
}

export interface GuardedRun<E> {
  id: string;
  hooks: RunHooks;
  listener: Listener<E>;
  signal: AbortSignal;
}

/** A run's deadline for its measurement (µs from t0): twice the expected, plus per command, plus slack. */
export function measurementDeadlineUs(mode: RunMode, spec: RunShape, baseRttUs: number): number {
  const expected = expectedRunUs({ ...spec, rttMs: spec.rttMs ?? 0, modes: [mode] }, mode, baseRttUs);
  const jitter = spec.jitterMs ? expected / Math.max(1, (spec.rttMs ?? 0) * 1000 + baseRttUs) * spec.jitterMs * 1000 : 0;
  return 2 * (expected + jitter) + spec.n * MEASURE_US_PER_COMMAND + MEASURE_SLACK_US;
}

/** How long outstanding commands may go without a reply before Redis counts as not answering (ms). */
export function stallMs(spec: RunShape): number {
  return STALL_MS + 2 * ((spec.rttMs ?? 0) + (spec.jitterMs ?? 0)) + (spec.chunkPauseMs ?? 0);
}

export async function guardRun<T extends { rtt: { measuredMinUs: number; addedMs: number } }, E>(
  session: RedisSession,
  mode: RunMode,
  spec: RunShape,
  listener: Listener<E>,
  signal: AbortSignal | undefined,
  measure: (run: GuardedRun<E>) => Promise<T>,
): Promise<T> {
  await backgroundSettled(signal);
  throwIfStopped(signal);
  refuseOnCluster(session, 'runs', { mode, spec }); // before the lease: nothing is written to a cluster the run cannot be routed on
  const address = session.target.address;
  await untilStopped(preflight(session), signal);
  const id = newRunId();
  const taking = RunLease.take(session.keyspace(), id);
  const lease = await untilStopped(taking, signal).catch((error: unknown) => {
    void taking.then((late) => late.release(true)).catch(() => {});
    throw error;
  });

  const inner = new AbortController();
  const stop = (reason: Error) => {
    if (!inner.signal.aborted) inner.abort(reason);
  };
  const onOuterAbort = () => stop(stoppedBy(signal!));
  signal?.addEventListener('abort', onOuterAbort);
  if (signal?.aborted) onOuterAbort();

  let answered = false;
  let timer: NodeJS.Timeout | undefined;
  let watch: NodeJS.Timeout | undefined;
  const clearTimers = () => {
    clearTimeout(timer);
    clearInterval(watch);
  };
  const setupMs = SETUP_TIMEOUT_MS + (spec.n * SETUP_US_PER_COMMAND) / 1000;
  timer = setTimeout(() => stop(new RedisNotAnsweringError(
    `The run's set-up did not end within ${durationText(setupMs * 1000)}: Redis at ${address} is not answering, or the machine is very busy.`)), setupMs);

  const deadlineUs = measurementDeadlineUs(mode, spec, session.baseRttUs);
  const stallLimitMs = stallMs(spec);
  let sent = 0;
  let replied = 0;
  const refusals = new ReplyRefusals(spec.errorAt !== undefined, session.cluster ? expectedClusterErrors(mode) : null);
  let lastProgress = performance.now();
  const silent = (message: string) => {
    session.noteSilence(message);
    stop(new RedisNotAnsweringError(message));
  };
  const wrapped: Listener<E> = {
    onStart: (header) => {
      if (answered) return;
      clearTimers();
      // At the deadline a run whose replies still come (progress within the stall limit) is slow, not
      // stuck — this machine's speed moves several-fold — so it gets half its deadline more, and its lease
      // with it (the one command of ours that may reach Redis mid-run, and only in a run already past twice
      // its expected time); the request's own time limit (run-queue.ts) bounds how often. A run with no
      // progress fails in words.
      const startedAt = performance.now();
      const atDeadline = () => {
        if (answered) return;
        const now = performance.now();
        if (now - lastProgress <= stallLimitMs) {
          const moreMs = deadlineUs / 2000;
          void lease.cover(moreMs).catch(() => {});
          timer = setTimeout(atDeadline, moreMs);
          return;
        }
        silent(`Redis at ${address} did not finish the run within ${durationText((now - startedAt) * 1000)} (twice what it should take, and more) and has sent nothing for ${durationText((now - lastProgress) * 1000)}: it is not answering, or far too slowly.`);
      };
      timer = setTimeout(atDeadline, deadlineUs / 1000);
      lastProgress = startedAt;
      let lastTick = lastProgress;
      watch = setInterval(() => {
        const now = performance.now();
        // A tick late by more than an interval means this process was busy (building a big pipeline, say):
        // replies may be waiting unread in the socket, and timers run before reads, so the time it could
        // not read is not Redis's silence.
        const blockedMs = now - lastTick - WATCH_INTERVAL_MS;
        if (blockedMs > WATCH_INTERVAL_MS) lastProgress = Math.min(now, lastProgress + blockedMs);
        lastTick = now;
        const quietMs = now - lastProgress;
        if (sent > replied && quietMs > stallLimitMs) {
          silent(`Redis at ${address} is not answering: ${(sent - replied).toLocaleString('en-US')} of the run's commands got no reply for ${durationText(quietMs * 1000)}.`);
        }
      }, WATCH_INTERVAL_MS);
      watch.unref();
      listener.onStart?.(header);
    },
    onBatch: (runId, batch) => {
      if (answered) return;
      // The quiet clock starts when commands become outstanding, not at t0: building a pipeline is ours.
      const wasIdle = sent === replied;
      for (const write of batch.writes) sent += write.commands;
      let replies = 0;
      for (const read of batch.reads) replies += read.replies;
      if (replies > 0 || sent === replied || wasIdle) lastProgress = performance.now();
      replied += replies;
      refusals.note(batch.outcomes);
      listener.onBatch?.(runId, batch);
    },
    onEnd: (runId, end) => {
      if (answered) return;
      clearTimers();
      timer = setTimeout(() => stop(new RedisNotAnsweringError(`The run's clean-up did not end within ${FINISH_TIMEOUT_MS / 1000} s: Redis at ${address} is not answering.`)), FINISH_TIMEOUT_MS);
      listener.onEnd?.(runId, end);
    },
  };

  let closeWindow: (() => void) | undefined;
  const hooks: RunHooks = {
    measuring: async () => {
      await lease.cover(deadlineUs / 1000 + setupMs);
      closeWindow = openMeasurementWindow();
    },
    replied: () => {
      const failure = refusals.failure();
      if (failure) throw failure;
    },
    measured: () => {
      closeWindow?.();
      lease.covered();
    },
    cleaned: async (keysGone) => {
      await lease.release(keysGone).catch(() => lease.abandon());
    },
  };

  const measured = measure({ id, hooks, listener: wrapped, signal: inner.signal }).finally(() => {
    clearTimers();
    closeWindow?.();
    signal?.removeEventListener('abort', onOuterAbort);
  });
  const stopped = new Promise<'stopped'>((resolve) => inner.signal.addEventListener('abort', () => setTimeout(() => resolve('stopped'), CANCEL_GRACE_MS), { once: true }));
  let outcome: { value: T } | { error: unknown } | 'stopped';
  try {
    outcome = await Promise.race([measured.then((value) => ({ value })), stopped]);
  } catch (error) {
    outcome = { error };
  }
  if (outcome === 'stopped') {
    answered = true;
    // The run's own clean-up carries on; a lease not released by it then runs out for the janitor.
    carryOn(measured.finally(() => lease.release(true).catch(() => {})), () => lease.abandon());
    throw inner.signal.reason;
  }
  answered = true;
  clearTimers();
  if ('error' in outcome) {
    await lease.release(true).catch(() => {}); // a run that failed before writing a key (cleaned() already released it otherwise)
    throw inner.signal.aborted ? inner.signal.reason : outcome.error;
  }
  session.noteSilence(undefined);
  session.noteBaseRtt(outcome.value.rtt.measuredMinUs - outcome.value.rtt.addedMs * 1000);
  await lease.release(true).catch(() => {});
  return outcome.value;
}

/** Redis answers a PING on the control connection, or the run does not start (and the page is told). */
async function preflight(session: RedisSession): Promise<void> {
  try {
    await session.control.ping();
  } catch (error) {
    if (!/timed out/i.test((error as Error).message)) return; // a closed connection: the run explains it (run-cleanup.ts)
    const message = `Redis at ${session.target.address} is not answering: no reply to PING within ${CONTROL_COMMAND_TIMEOUT_MS / 1000} s. The run did not start.`;
    session.noteSilence(message);
    throw new RedisNotAnsweringError(message);
  }
}

/** Why the caller's signal stopped the run: its time limit, or a Cancel. */
function stoppedBy(signal: AbortSignal): Error {
  return signal.reason instanceof RequestTimeLimitError ? signal.reason : new RunCancelledError('Run cancelled');
}

function throwIfStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw stoppedBy(signal);
}

/** `work`, or the caller's stop as soon as it comes (what `work` does later is left to finish by itself). */
async function untilStopped<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  throwIfStopped(signal);
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(stoppedBy(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
