// The round trips a run waited through, measured at the client socket. One definition, used by every
// figure that says "round trips" (the app, the text exports, the CLI):
//
//   a round trip is a wait for replies before more could be sent: it begins when the run sends a
//   command after every reply to what it had sent before was read (the socket had nothing in flight),
//   and only where the run could not have sent that command sooner — at the start of a batch it issued
//   only after the earlier replies: the next command of a sequential run, the next chunk, the GET or
//   SET of the next dependent step, the held-connection PING after the run.
//
// Within one batch issued at once (one pipeline, one transaction, an auto-pipelined tick) the run waits
// for nothing, however its client library splits the batch into socket writes: node-redis writes a
// pipeline in pieces, one per turn of its event loop, and on loopback Redis often answers a piece before
// the next is written. Counting every such moment with nothing in flight made the same four writes
// two round trips one time and one the next, depending on the machine's timing; a pipeline is one
// round trip. The socket events still decide: a sequential command written while an earlier reply was
// still in flight (it cannot be, but a file may say so) starts no new one. A sequential run has one per
// command, one pipeline one, a chunked run one per chunk — counted from the trace's times at the batch
// boundaries its mode sets, not assumed. An observed connection (run.observed: a user's client through the
// observing port) has no batches of ours: every wait with nothing in flight is the client's, and counts.
// The union of [sentUs, repliedUs] that trace/derive/run-phases.ts
// measures the awaiting time over is unchanged. Pure, unit-tested.
import type { TraceDocument } from '../format/trace-format.ts';
import { workCommandCount } from '../format/wire-layout.ts';

/**
 * Whether the wire command at `index` starts a batch the run issued only after the replies before it:
 * every command of a sequential run (and each GET and SET of a dependent step), the first of each chunk,
 * the first of the work in the batched modes, and the held-connection PING after the work.
 */
export function startsBatch(doc: Pick<TraceDocument, 'run'>, index: number): boolean {
  const { run } = doc;
  if (run.observed) return true;
  const work = workCommandCount(run.mode, run.command, run.operations);
  if (index === 0 || index >= work) return true;
  switch (run.mode) {
    case 'sequential':
      return true;
    case 'chunked':
      return index % (run.chunk ?? run.operations) === 0;
    default:
      // pipeline, auto, multi, evalsha (one pipeline of EVALSHAs), eval and multikey (one command): one batch.
      return false;
  }
}

/** How many round trips the run waited through (0 for a run without commands). */
export function roundTripsWaited(doc: TraceDocument): number {
  const { commands } = doc;
  if (commands.length === 0) return 0;
  let trips = 1;
  let inFlightUntil = commands[0]!.repliedUs;
  // sentUs and repliedUs are both non-decreasing in command order.
  for (let i = 1; i < commands.length; i++) {
    const { sentUs, repliedUs } = commands[i]!;
    // A command written at the very instant the last reply was read still waits a round trip of its own.
    if (sentUs >= inFlightUntil && startsBatch(doc, i)) trips++;
    inFlightUntil = Math.max(inFlightUntil, repliedUs);
  }
  return trips;
}
