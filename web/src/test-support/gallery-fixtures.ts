// Test traces of a gallery workload, built through the real TraceBuilder: a run of a published
// benchmark's spec in one mode, as repeat k, taking a chosen total time, with the connection's RTT and
// the delay proxy's added RTT as given. For unit and view tests only; nothing here is shown to users.
import { escapeBytes } from '../../../trace/format/escape-bytes.ts';
import type { RunSpec } from '../../../trace/format/run-request.ts';
import { TraceBuilder } from '../../../trace/format/trace-builder.ts';
import { HEAD_BYTES, type RunMode, type TraceDocument } from '../../../trace/format/trace-format.ts';
import { header } from './trace-fixtures.ts';

export interface GalleryTraceOptions {
  repeat?: number;
  /** The PING round trip measured on the run's connection (rtt.measuredMedianUs), µs. */
  rttUs?: number;
  /** The delay proxy's added RTT, ms. */
  addedMs?: number;
}

const reply = (spec: RunSpec, i: number) => (spec.command === 'INCR' ? i + 1 : spec.command === 'SET' ? 'OK' : 'PONG');

/**
 * spec's workload in `mode`, its last reply at durationUs. Sequential: one write and one read per command,
 * evenly spaced, the last reply at durationUs; pipeline: one write at 10 µs, every reply in one read at durationUs.
 */
export function galleryTrace(spec: RunSpec, mode: RunMode, durationUs: number, options: GalleryTraceOptions = {}): TraceDocument {
  const { repeat = 0, rttUs = 40, addedMs = 0 } = options;
  const n = spec.n;
  const h = header(mode, n, spec.command, `gallery-${spec.command.toLowerCase()}-${n}-${mode}-${addedMs}-r${repeat}`);
  const b = new TraceBuilder({
    ...h,
    run: { ...h.run, valueBytes: spec.command === 'SET' || spec.command === 'GET' ? spec.valueBytes : 0, repeat, warmup: spec.cold ? null : { commands: Math.min(n, 1000), durationUs: 1000 } },
    rtt: { addedMs, jitterMs: 0, measuredMinUs: rttUs * 0.9, measuredMedianUs: rttUs, samples: 5 },
    recorder: { ...h.recorder, client: spec.engine === 'raw' ? 'raw socket (pre-encoded RESP; PING inline)' : 'ioredis 6.0.0' },
  });
  const raw = spec.engine === 'raw';
  const head = (text: string) => (raw ? escapeBytes(new TextEncoder().encode(text), HEAD_BYTES) : undefined);
  if (mode === 'sequential') {
    const step = (durationUs - 10) / n;
    for (let i = 0; i < n; i++) {
      const t = 10 + i * step;
      b.addBatch({
        writes: [{ atUs: t, bytes: 14, commands: 1 }],
        reads: [{ atUs: i === n - 1 ? durationUs : t + step * 0.9, bytes: 7, replies: 1 }],
        outcomes: [{ reply: reply(spec, i) }],
      });
    }
  } else {
    b.addWrite({ atUs: 10, bytes: (raw ? 6 : 14) * n, commands: n, head: head('PING\r\n'.repeat(n)) });
    b.addRead({ atUs: durationUs, bytes: 7 * n, replies: n, head: head('+PONG\r\n'.repeat(n)) });
    for (let i = 0; i < n; i++) b.addOutcome({ reply: reply(spec, i) });
  }
  return b.finish({ reads: mode === 'sequential' ? n : 1, writes: mode === 'sequential' ? n : 1, execUs: n, source: 'redis-info', exclusive: true });
}

/** Repeats of both modes, interleaved as a request runs them (seq 0, pipe 0, seq 1, …). */
export function galleryPair(spec: RunSpec, sequentialUs: readonly number[], pipelineUs: readonly number[], options: Omit<GalleryTraceOptions, 'repeat'> = {}): TraceDocument[] {
  return sequentialUs.flatMap((us, k) => [
    galleryTrace(spec, 'sequential', us, { ...options, repeat: k }),
    ...(pipelineUs[k] === undefined ? [] : [galleryTrace(spec, 'pipeline', pipelineUs[k], { ...options, repeat: k })]),
  ]);
}
