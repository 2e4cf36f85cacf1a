// Test traces with a neighbour client and the held-connection probe: a pipeline trace (trace-fixtures.ts)
// given a neighbour's commands, MONITOR lines and the two PINGs' times. For unit tests only.
import type { HeldConnection, Neighbor, TraceDocument } from '../../../trace/format/trace-format.ts';
import { pipelineTrace } from './trace-fixtures.ts';

export const NEIGHBOR_ADDRESS = '127.0.0.1:50001';

/**
 * A pipeline of 10 INCRs (written at 10 µs, replied at 500 µs: durationUs 500) executed on Redis at
 * 100, 110, … 190 µs; a neighbour whose 200 commands before t0 took 50 µs each and whose 100 during
 * the run took 400 µs; `inside` of its MONITOR lines fall between 100 and 190 µs.
 */
export function neighborTrace({ inside = 3, monitor = true, held = null }: { inside?: number; monitor?: boolean; held?: HeldConnection | null } = {}): TraceDocument {
  const doc = pipelineTrace(10, 10, 10, 500);
  const before = Array.from({ length: 200 }, (_, i) => ({ sentUs: -20_000 + i * 100, repliedUs: -20_000 + i * 100 + 50 }));
  const during = Array.from({ length: 100 }, (_, i) => ({ sentUs: i * 5, repliedUs: i * 5 + 400 }));
  const neighbor: Neighbor = { source: 'neighbor-client', command: 'GET', ratePerSec: 6000, valueBytes: 16, address: NEIGHBOR_ADDRESS, commands: [...before, ...during] };
  const line = (atUs: number) => ({ atUs, source: NEIGHBOR_ADDRESS, command: 'GET pipescope:x:neighbor' });
  return {
    ...doc,
    run: { ...doc.run, probes: { ...doc.run.probes, monitor } },
    commands: doc.commands.map((c, i) => (monitor ? { ...c, serverUs: 100 + 10 * i } : c)),
    serverTrace: monitor
      ? { clock: { offsetUs: 0, uncertaintyUs: 5, samples: 3 }, others: [line(50), ...Array.from({ length: inside }, (_, i) => line(101 + i)), line(300)], syscalls: null }
      : null,
    neighbor,
    heldConnection: held,
  };
}
