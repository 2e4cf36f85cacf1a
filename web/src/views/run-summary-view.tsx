// The numbers of one run, each with where it was measured: client socket figures from the socket
// probe, Redis figures from INFO deltas ("includes other clients" when the Redis was shared) and, for
// server-traced runs with strace, Redis's kernel calls counted from strace — never an estimate.
import { useMemo } from 'react';
import type { TraceDocument } from '../../../trace/trace-format.ts';
import { errorCount, latencySummary } from '../../../trace/trace-stats.ts';
import { formatBytes, formatCount, formatRate, formatUs } from '../format/number-format.ts';
import { probesOf } from '../format/probes-text.ts';
import { kernelCounts } from '../model/kernel-counts.ts';

interface Metric {
  id: string;
  label: string;
  value: number;
  text: string;
  detail?: string;
  source: string;
  warn?: boolean;
}

export function RunSummaryView({ doc }: { doc: TraceDocument }) {
  // Sorting 100,000 latencies is not for every re-render.
  const latency = useMemo(() => latencySummary(doc), [doc]);
  const { client, server } = doc.counts;
  const strace = probesOf(doc).strace;
  const serverSource = server.exclusive ? 'Redis INFO stats' : 'Redis INFO stats · includes other clients';
  const errors = useMemo(() => errorCount(doc), [doc]);
  const kernel = kernelCounts(doc);
  const metrics: Metric[] = [
    { id: 'duration', label: 'Total time', value: doc.totals.durationUs, text: formatUs(doc.totals.durationUs), source: 'client socket' },
    { id: 'ops', label: 'Throughput', value: doc.totals.opsPerSec, text: formatRate(doc.totals.opsPerSec), source: 'client socket' },
    { id: 'p50', label: 'Latency p50', value: latency.p50Us, text: formatUs(latency.p50Us), source: 'client socket' },
    { id: 'p99', label: 'Latency p99', value: latency.p99Us, text: formatUs(latency.p99Us), source: 'client socket' },
    { id: 'max', label: 'Latency max', value: latency.maxUs, text: formatUs(latency.maxUs), source: 'client socket' },
    {
      id: 'client-writes', label: 'Socket writes', value: client.writes, text: formatCount(client.writes),
      detail: `${formatBytes(client.bytesOut)} out`, source: 'client socket',
    },
    {
      id: 'client-reads', label: 'Socket reads', value: client.reads, text: formatCount(client.reads),
      detail: `${formatBytes(client.bytesIn)} in`, source: 'client socket',
    },
    { id: 'server-reads', label: 'Redis read events', value: server.reads, text: formatCount(server.reads), source: serverSource, warn: !server.exclusive },
    { id: 'server-writes', label: 'Redis write events', value: server.writes, text: formatCount(server.writes), source: serverSource, warn: !server.exclusive },
    ...(kernel
      ? [
          { id: 'kernel-reads', label: 'Kernel reads', value: kernel.reads, text: formatCount(kernel.reads), detail: 'Redis read()', source: 'kernel (strace)' },
          {
            id: 'kernel-writes', label: 'Kernel writes', value: kernel.writes, text: formatCount(kernel.writes),
            detail: 'write() + writev()', source: 'kernel (strace)',
          },
        ]
      : []),
    {
      id: 'server-exec', label: 'Redis service time', value: server.execUs, text: formatUs(server.execUs),
      detail: `${formatUs(server.execUs / Math.max(1, doc.run.n))} per command`, source: 'Redis INFO commandstats', warn: !server.exclusive,
    },
  ];
  return (
    <section className="summary" data-testid="summary" aria-label={`Measured figures of the ${doc.run.mode} run`}>
      <dl className="metrics">
        {metrics.map((m) => (
          <div className={`metric metric-${m.id}`} key={m.id}>
            <dt>{m.label}</dt>
            <dd>
              <span className="metric-value" data-metric={m.id} data-value={m.value}>
                {m.text}
              </span>
              {m.detail && <span className="metric-detail">{m.detail}</span>}
              <span className={m.warn ? 'source warn' : 'source'}>{m.source}</span>
            </dd>
          </div>
        ))}
      </dl>
      <p className="summary-foot">
        {strace === 'unavailable' && (
          <span className="strace-note" data-testid="strace-unavailable">
            strace unavailable — INFO counts: Redis’s read and write events above are INFO figures, not counted kernel calls.{' '}
          </span>
        )}
        {errors > 0 && <span className="errors">{formatCount(errors)} error replies. </span>}
        RTT before t0 (PING ×{doc.rtt.samples}, client socket): min {formatUs(doc.rtt.measuredMinUs)}, median {formatUs(doc.rtt.measuredMedianUs)}
        {doc.rtt.addedMs > 0 && ` · includes ${doc.rtt.addedMs} ms added by the delay proxy${doc.rtt.jitterMs ? ` ± ${doc.rtt.jitterMs} ms` : ''}`}
        {' · '}Redis {doc.redis.version} at {doc.redis.address}
        {doc.redis.embedded ? ' (private)' : ''} · {doc.recorder.client}, {doc.recorder.runtime}
      </p>
    </section>
  );
}
