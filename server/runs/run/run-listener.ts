// What a run tells whoever started it, as it goes: its header before t0, its socket events in
// batches, and everything measured after its last reply (RunEnd), before the trace document is
// assembled. The live endpoint streams these to the browser; the recorder and tests may ignore them.
import type { ProbeBatch, ServerCounts, ServerSide, TraceHeader } from '../../../trace/format/trace-builder.ts';
import type { ClusterRecord } from '../../../trace/format/cluster-format.ts';
import type { CommandPlaces } from '../../../trace/format/cluster-places.ts';
import type { HeldConnection, KernelTcp, KeysAfter, Memory, Neighbor, ProbeCosts, ServerCpu } from '../../../trace/format/trace-format.ts';

export interface RunListener {
  onStart?(header: TraceHeader): void;
  onBatch?(runId: string, batch: ProbeBatch): void;
  /**
   * All the run measured after its last batch, checked complete, before the document is assembled
   * (a million records take a while): a live view can finish its own copy meanwhile.
   */
  onEnd?(runId: string, end: RunEnd): void;
}

export interface RunEnd {
  server: ServerCounts;
  serverSide: ServerSide | null;
  memory: Memory | null;
  /** µs from t0 until the client's call returned (totals.doneUs). */
  doneUs: number;
  /** t0 on process.hrtime (ns): the instant the run called its client, for checks against other clocks. */
  t0Ns: bigint;
  kernelTcp: KernelTcp | null;
  /** v3: the run's keys read back after it; the neighbour client's commands; the held-connection PINGs. */
  keysAfter: KeysAfter | null;
  neighbor: Neighbor | null;
  heldConnection: HeldConnection | null;
  /** Redis's CPU time over the run; which probes ran and what each cost it. */
  serverCpu: ServerCpu;
  probeCosts: ProbeCosts;
  /** A cluster run: its cluster record and where each command went (cluster-places.ts). */
  clusterPlaces?: { record: ClusterRecord; places: CommandPlaces };
}
