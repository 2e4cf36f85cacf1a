// Ready-made runs for presenters: a link speed (added RTT through the delay proxy) and a workload
// small enough to finish while the room watches. Loopback adds nothing; the rest are labelled delay.
import type { CommandName } from '../../../trace/trace-format.ts';

export interface NetworkPreset {
  id: string;
  label: string;
  rttMs: number;
  jitterMs: number;
  command: CommandName;
  n: number;
  /** What the preset is meant to show, in one line. */
  lesson: string;
}

export const NETWORK_PRESETS: readonly NetworkPreset[] = [
  { id: 'loopback', label: 'Loopback', rttMs: 0, jitterMs: 0, command: 'PING', n: 1000,
    lesson: 'No added delay: even on loopback each sequential command pays a round trip through the kernel.' },
  { id: 'lan', label: 'LAN 0.5 ms', rttMs: 0.5, jitterMs: 0, command: 'PING', n: 200,
    lesson: 'A fast LAN: sequential time grows by N × 0.5 ms.' },
  { id: 'cross-region', label: 'Cross-region 80 ms', rttMs: 80, jitterMs: 5, command: 'INCR', n: 20,
    lesson: '80 ms between regions: 20 sequential INCRs take over 1.6 s, the pipeline about one round trip.' },
  { id: '250ms', label: '250 ms link', rttMs: 250, jitterMs: 0, command: 'PING', n: 8,
    lesson: 'At 250 ms RTT a sequential client manages at most 4 requests per second, however fast Redis is.' },
];
