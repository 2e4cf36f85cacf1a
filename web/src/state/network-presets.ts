// Ready-made runs for presenters: a link speed (added RTT through the delay proxy) and a workload
// small enough to finish while the room watches, plus the docs' netcat example (PING×3 inline on a raw
// socket, server-traced) and the docs' advice to send a large job in chunks of ~10k (time and memory of
// one huge pipeline beside chunks: SETs, whose cost falls on the client, and GETs of 1 KB, whose
// replies Redis must queue). Loopback adds nothing; the rest are labelled delay.
import type { Engine } from '../../../trace/run-request.ts';
import type { CommandName } from '../../../trace/trace-format.ts';
import type { RunFormState } from './run-form-state.ts';
import type { ModeChoice } from './url-hash-params.ts';

export interface NetworkPreset {
  id: string;
  label: string;
  rttMs: number;
  jitterMs: number;
  command: CommandName;
  n: number;
  /**
   * Unnamed: both modes, ioredis, and the Redis-side probes, value size and chunk size left as the user
   * set them. serverTrace means both Redis-side probes (MONITOR and strace), on or off.
   */
  mode?: ModeChoice;
  valueBytes?: number;
  chunk?: number;
  engine?: Engine;
  serverTrace?: boolean;
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
  { id: 'netcat', label: 'netcat: PING×3 inline', rttMs: 0, jitterMs: 0, command: 'PING', n: 3, mode: 'pipeline', engine: 'raw', serverTrace: true,
    lesson: 'The docs’ netcat example: PING\\r\\nPING\\r\\nPING\\r\\n written in one go; three +PONG replies come back.' },
  { id: 'chunks', label: '1,000,000 SETs (100 B): one pipeline vs chunks of 10,000', rttMs: 0, jitterMs: 0, command: 'SET', n: 1_000_000,
    valueBytes: 100, mode: 'pipeline-vs-chunked', chunk: 10_000, engine: 'ioredis', serverTrace: false,
    lesson: 'The docs advise sending a large job in batches of about 10k: compare the time and the peak memory of the client and of Redis.' },
  { id: 'reply-queue', label: '100,000 GETs (1 KB): one pipeline vs chunks of 10,000', rttMs: 0, jitterMs: 0, command: 'GET', n: 100_000,
    valueBytes: 1000, mode: 'pipeline-vs-chunked', chunk: 10_000, engine: 'ioredis', serverTrace: false,
    lesson: 'Replies far bigger than the requests: Redis queues what the client has not read yet on the connection (CLIENT LIST omem); chunks of 10,000 bound that queue.' },
];

/** The form a preset sets up: every field it names, both modes and ioredis unless it says otherwise; the rest as they were. */
export function applyPreset(form: RunFormState, p: NetworkPreset): RunFormState {
  return {
    ...form,
    command: p.command,
    n: String(p.n),
    valueBytes: p.valueBytes === undefined ? form.valueBytes : String(p.valueBytes),
    chunk: p.chunk === undefined ? form.chunk : String(p.chunk),
    rttMs: String(p.rttMs),
    jitterMs: String(p.jitterMs),
    mode: p.mode ?? 'both',
    engine: p.engine ?? 'ioredis',
    monitor: p.serverTrace ?? form.monitor,
    strace: p.serverTrace ?? form.strace,
  };
}

/** The preset the form currently matches, if any. */
export function currentPreset(form: RunFormState): NetworkPreset | undefined {
  return NETWORK_PRESETS.find((p) => {
    const applied = applyPreset(form, p);
    return (Object.keys(applied) as (keyof RunFormState)[]).every((k) => applied[k] === form[k]);
  });
}
