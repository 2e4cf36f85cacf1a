// The round trips a run waited through, measured at the client socket: the stretches of its time with
// at least one command written and its reply not yet read, each ended by the read that left nothing
// in flight (a command written at the very instant of that read still waits a round trip of its own). A sequential run has one per command, one pipeline has one, a chunked run one per
// pipeline — counted from the trace, not assumed from the mode. In trace/ because the app's figures and
// the text exports (flow-export.ts, mermaid-export.ts, the CLI) count them alike. The same union of [sentUs, repliedUs]
// that trace/derive/run-phases.ts measures the awaiting time over. Pure, unit-tested.
import type { TraceDocument } from '../format/trace-format.ts';

/** How many separate stretches had a command in flight (0 for a run without commands). */
export function roundTripsWaited(doc: TraceDocument): number {
  const { commands } = doc;
  if (commands.length === 0) return 0;
  let stretches = 1;
  let to = commands[0]!.repliedUs;
  // sentUs and repliedUs are both non-decreasing in command order.
  for (let i = 1; i < commands.length; i++) {
    const { sentUs, repliedUs } = commands[i]!;
    if (sentUs >= to) stretches++;
    to = Math.max(to, repliedUs);
  }
  return stretches;
}
