// The numbers of one run, each with where it was measured: client socket figures from the socket
// probe (and its per-command latency, latency-view.tsx), Redis figures from INFO deltas ("includes other
// clients" when the Redis was shared), the kernel's TCP figures from ss (commands vs write() calls vs TCP
// segments vs round trips), Redis's CPU time (the kernel's count for the private server, else INFO cpu)
// and, for runs with strace, Redis's kernel calls counted from strace —
// never an estimate. A run repeated K times shows each figure as its median (highlighted) and
// [min–max] over the repeats; a figure every repeat measured alike shows alone.
// Test hooks: data-metric=<id> with data-value = the median (data-min, data-max the range).
import { useMemo } from 'react';
import { spreadOver } from '../../../../trace/derive/repeat-stats.ts';
import { spreadOf, type Spread } from '../../../../trace/format/sweep-format.ts';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { errorCount } from '../../../../trace/derive/trace-stats.ts';
import { formatBytes, formatCount, formatRate, formatUs } from '../../format/number-format.ts';
import { kernelTcpLine } from '../../format/connection-text.ts';
import { probesOf } from '../../format/probes-text.ts';
import { SERVER_CPU_SOURCE_TEXT, serverCpuNote, serverCpuUs } from '../../format/server-cpu-text.ts';
import { repeatsNote } from '../../format/repeat-text.ts';
import { spreadLine, spreadText } from '../../format/spread-text.ts';
import { kernelCounts } from '../../model/kernel-counts.ts';
import type { HistogramDomain } from '../../layout/latency-histogram-layout.ts';
import type { RunGroup } from '../../model/run-groups.ts';
import { infoMeasured, socketSource } from '../../model/info-measured.ts';
import { LatencyView } from './latency-view.tsx';
import './run-summary-view.css';

interface Metric {
  id: string;
  label: string;
  spread: Spread;
  show: (value: number) => string;
  detail?: string;
  source: string;
  warn?: boolean;
}

interface Props {
  group: RunGroup;
  /** The repeat the panel shows (its histogram, its RTT and recorder). */
  shown: TraceDocument;
  /** The latency histograms' bucket range, shared by the panels side by side. */
  latencyDomain: HistogramDomain;
}

export function RunSummaryView({ group, shown, latencyDomain }: Props) {
  const { repeats } = group;
  const over = (figure: (doc: TraceDocument) => number) => spreadOver(repeats, figure);
  const strace = probesOf(shown).strace;
  const exclusive = repeats.every((d) => d.counts.server.exclusive);
  const serverSource = exclusive ? 'Redis INFO stats' : 'Redis INFO stats · includes other clients';
  const errors = useMemo(() => errorCount(shown), [shown]);
  const kernelRepeats = repeats.map(kernelCounts);
  const kernel = kernelRepeats.every((k) => k !== null) ? kernelRepeats : null;
  const n = shown.run.n;
  const at = socketSource(shown);
  const info = repeats.every(infoMeasured);
  // Redis's CPU time, when every repeat measured it the same way (serverCpu).
  const cpuRepeats = repeats.map((d) => (d.serverCpu?.source === shown.serverCpu?.source ? serverCpuUs(d) : null));
  const cpu = cpuRepeats.every((us): us is number => us !== null) ? cpuRepeats : null;
  const metrics: Metric[] = [
    { id: 'duration', label: 'Total time', spread: over((d) => d.totals.durationUs), show: formatUs, source: `${at}, t0 → last reply` },
    { id: 'ops', label: 'Throughput', spread: over((d) => d.totals.opsPerSec), show: formatRate, source: at },
    {
      id: 'client-writes', label: 'Socket writes', spread: over((d) => d.counts.client.writes), show: formatCount,
      detail: `${spreadLine(over((d) => d.counts.client.bytesOut), formatBytes)} out`, source: at,
    },
    {
      id: 'client-reads', label: 'Socket reads', spread: over((d) => d.counts.client.reads), show: formatCount,
      detail: `${spreadLine(over((d) => d.counts.client.bytesIn), formatBytes)} in`, source: at,
    },
    ...(info ? [
      { id: 'server-reads', label: 'Redis read events', spread: over((d) => d.counts.server.reads), show: formatCount, source: serverSource, warn: !exclusive },
      { id: 'server-writes', label: 'Redis write events', spread: over((d) => d.counts.server.writes), show: formatCount, source: serverSource, warn: !exclusive },
    ] : []),
    ...(kernel
      ? [
          { id: 'kernel-reads', label: 'Kernel reads', spread: spreadOf(kernel.map((k) => k!.reads)), show: formatCount, detail: 'Redis read()', source: 'kernel (strace)' },
          {
            id: 'kernel-writes', label: 'Kernel writes', spread: spreadOf(kernel.map((k) => k!.writes)), show: formatCount,
            detail: 'write() + writev()', source: 'kernel (strace)',
          },
        ]
      : []),
    ...(info ? [{
      id: 'server-exec', label: 'Redis service time', spread: over((d) => d.counts.server.execUs), show: formatUs,
      detail: `${spreadLine(over((d) => d.counts.server.execUs / Math.max(1, n)), formatUs)} per command`, source: 'Redis INFO commandstats', warn: !exclusive,
    }] : []),
    ...(cpu
      ? [{
          id: 'server-cpu', label: 'Redis CPU', spread: spreadOf(cpu), show: formatUs,
          detail: `${spreadLine(spreadOf(cpu.map((us) => us / Math.max(1, shown.run.operations))), formatUs)} per operation`,
          source: SERVER_CPU_SOURCE_TEXT[shown.serverCpu!.source], warn: !exclusive,
        }]
      : []),
  ];
  const cpuNote = serverCpuNote(shown);
  const note = repeatsNote(group);
  const wire = useMemo(() => kernelTcpLine(repeats), [repeats]);
  return (
    <section className="summary" data-testid="summary" aria-label={`Measured figures of the ${shown.run.mode} run`}>
      {wire && (
        <p className="wire-counts" data-testid="kernel-tcp" title={'detail' in wire ? wire.detail : undefined}>
          {'unavailable' in wire ? (
            <>
              Kernel TCP figures unavailable: {wire.unavailable} <span className="source">kernel (ss)</span>
            </>
          ) : (
            wire.parts.map((part, i) => (
              <span key={part.text} className="wire-count-part">
                {i > 0 && ' · '}
                {part.text}
                {part.source && <span className="source"> {part.source}</span>}
              </span>
            ))
          )}
        </p>
      )}
      <dl className="metrics">
        {metrics.map((m) => {
          const text = spreadText(m.spread, m.show);
          return (
            <div className={`metric metric-${m.id}`} key={m.id}>
              <dt>{m.label}</dt>
              <dd>
                <span className="metric-value" data-metric={m.id} data-value={m.spread.median} data-min={m.spread.min} data-max={m.spread.max}>
                  {text.median}
                </span>
                {text.range && <span className="metric-range">{text.range}</span>}
                {m.detail && <span className="metric-detail">{m.detail}</span>}
                <span className={m.warn ? 'source warn' : 'source'}>{m.source}</span>
              </dd>
            </div>
          );
        })}
      </dl>
      <LatencyView group={group} shown={shown} domain={latencyDomain} />
      <p className="summary-foot">
        {note && (
          <span className="repeats-note" data-testid="repeats-note">
            {note}{' '}
          </span>
        )}
        {strace === 'unavailable' && (
          <span className="strace-note" data-testid="strace-unavailable">
            strace unavailable — INFO counts: Redis’s read and write events above are INFO figures, not counted kernel calls.{' '}
          </span>
        )}
        {errors > 0 && <span className="errors">{formatCount(errors)} error replies. </span>}
        {cpuNote && (
          <span className="cpu-note" data-testid="server-cpu-note">
            {cpuNote}{' '}
          </span>
        )}
        {shown.run.observed ? (
          <>Observed at Pipescope’s observing proxy (Redis INFO cannot tell this connection’s share apart: not shown)
            {shown.rtt.addedMs > 0 && ` · ${shown.rtt.addedMs} ms RTT added by the proxy${shown.rtt.jitterMs ? ` ± ${shown.rtt.jitterMs} ms` : ''}`}</>
        ) : (
          <>RTT before t0 (PING ×{shown.rtt.samples}, client socket): min {formatUs(shown.rtt.measuredMinUs)}, median {formatUs(shown.rtt.measuredMedianUs)}
            {shown.rtt.addedMs > 0 && ` · includes ${shown.rtt.addedMs} ms added by the delay proxy${shown.rtt.jitterMs ? ` ± ${shown.rtt.jitterMs} ms` : ''}`}</>
        )}
        {' · '}Redis {shown.redis.version} at {shown.redis.address}
        {shown.redis.embedded ? ' (private)' : ''} · {shown.recorder.client}, {shown.recorder.runtime}
      </p>
    </section>
  );
}
