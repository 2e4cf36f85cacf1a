// The warm-up of a cluster run, before t0, on every master's socket, as a single Redis run warms its one
// connection (warmup.ts): a fresh socket's first commands pay first-call costs that would otherwise be
// charged to the run. The run's command on throw-away keys in the run's namespace (`<namespace>warmup:…`,
// deleted after with the run's keys), min(n, 1,000) of them cut to the warm-up's time budget at the
// cluster's RTT, each to the master of its key's slot: one write per master when the run writes its
// commands together, one command at a time when it is sequential. A master none of those keys hash to
// (keys under one hash tag all go to one node) gets WARM_PINGS PINGs instead. Its replies are read and
// dropped; it ends before the run's first INFO snapshot, so no INFO delta holds it. The trace records it
// as run.warmup (commands, duration); there is no hot-start tail on a cluster yet.
import type { ClusterTopology } from '../../trace/format/cluster-format.ts';
import type { RunInfo } from '../../trace/format/trace-format.ts';
import { warmupCommands } from '../../trace/format/run-request.ts';
import { splitByNode } from '../drivers/cluster-split.ts';
import type { RawDriver } from '../drivers/raw-driver.ts';
import { assertAllowed } from '../protocol/command-guard.ts';
import { encode, encodeBatch } from '../protocol/resp-encoder.ts';
import { workloadFor, type Workload } from '../protocol/run-workload.ts';
import { microsSince } from '../support/monotonic-clock.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import type { RunPlan } from './run/run-plan.ts';
import { warmupSize } from './warmup.ts';

/** PINGs, one after another, on a master that no warm-up key hashes to. */
export const WARM_PINGS = 3;

export interface ClusterWarmup {
  /** The warm-up's keys, for deletion after the run. */
  workload: Workload;
  /** Commands written: no warm-up key beyond these can exist. */
  written: number;
  /** run.warmup: null for a cold run. */
  record: RunInfo['warmup'];
}

export async function warmUpCluster(drivers: readonly RawDriver[], topology: ClusterTopology, plan: RunPlan, rttUs: number, cancelled: () => boolean): Promise<ClusterWarmup> {
  const { namespace, workload } = plan;
  const warm = workloadFor(workload.command, `${namespace}warmup:`, workload.valueBytes);
  const sequential = plan.mode === 'sequential';
  const wanted = warmupCommands(workload.operations, workload.cold);
  const size = wanted === 0 ? 0 : warmupSize(sequential ? 'sequential' : 'pipeline', workload.operations, workload.operations, wanted, rttUs, workload.command);
  if (size === 0) return { workload: warm, written: 0, record: null };
  for (const [name, ...args] of warm.setup) assertAllowed(namespace, name, args.map(String));
  const first = warm.argsFor(0);
  assertAllowed(namespace, workload.command, first.map((arg) => (typeof arg === 'string' ? arg : '<bytes>')));
  const started = process.hrtime.bigint();
  const split = splitByNode(warm, size, topology);
  const { bytes, offsets } = encodeBatch(warm, size);
  const drop = () => {};
  const warmNode = async (k: number) => {
    const share = split.shares[k]!;
    const driver = drivers[k]!;
    if (share.length === 0) {
      for (let i = 0; i < WARM_PINGS; i++) await driver.ping();
      return;
    }
    // The set-up names the one key every operation uses (GET's value): on the node of operation 0.
    if (split.owners[0] === k) for (const command of warm.setup) await driver.write(encode([...command]), 1, drop);
    if (sequential) {
      for (const i of share) {
        if (cancelled()) throw new RunCancelledError('Run cancelled');
        await driver.write(bytes.subarray(offsets[i]!, offsets[i + 1]!), 1, drop);
      }
    } else {
      await driver.write(Buffer.concat(share.map((i) => bytes.subarray(offsets[i]!, offsets[i + 1]!))), share.length, drop);
    }
  };
  await Promise.all(drivers.map((_, k) => warmNode(k)));
  if (cancelled()) throw new RunCancelledError('Run cancelled');
  return { workload: warm, written: size, record: { commands: size, durationUs: microsSince(started) } };
}
