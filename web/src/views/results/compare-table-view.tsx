// The compare view's table: two to six runs of one workload, one row each — time, ops/s,
// each run against the fastest (paired by round, with its 95 % interval), client writes, TCP data
// segments, Redis reads, round trips, and where the time went as a bar on one
// scale for all rows — above their diagrams, which share one time scale (the toolbar's toggle). Shown
// whenever more than one run is on screen: after a request with several modes, and when several trace
// files are opened. Figures from format/compare-rows.ts; each column names who measured it.
// Test hooks: data-testid=compare-table (compare-scroll: the region that scrolls), a row per run with
// data-mode (data-client when the libraries differ) and data-metric cells. A run cut short (or still
// measuring) carries its mark and never counts as the fastest.
import { useMemo } from 'react';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { COMPARE_SOURCES, compareRows, sameWorkload, type CompareRow } from '../../format/compare-rows.ts';
import { formatCount, formatRate, formatUs } from '../../format/number-format.ts';
import { PHASE_TEXT } from '../../format/phase-text.ts';
import type { RunGroup } from '../../model/run-groups.ts';
import { useSidewaysScroll } from '../app/use-sideways-scroll.ts';
import '../run/incomplete-mark.css';
import './compare-table-view.css';

interface Props {
  groups: readonly RunGroup[];
  shown: readonly TraceDocument[];
}

function PhaseCell({ row, endUs }: { row: CompareRow; endUs: number }) {
  return (
    <div className="compare-phases" title={row.phases.map((p) => `${PHASE_TEXT[p.name].label}: ${formatUs(p.us)}`).join('\n')}>
      {row.phases.map((p) =>
        p.us > 0 ? <span key={p.name} className={`compare-phase phase-${p.name}`} style={{ width: `${(100 * p.us) / endUs}%` }} /> : null,
      )}
    </div>
  );
}

export function CompareTableView({ groups, shown }: Props) {
  // Not computed for one run alone (no table then): each row reads every command (round trips, phases).
  const rows = useMemo(() => (groups.length < 2 ? [] : compareRows(groups, shown)), [groups, shown]);
  const same = useMemo(() => sameWorkload(shown), [shown]);
  const [scroller, scrollProps] = useSidewaysScroll('The runs compared, a table that scrolls sideways');
  if (rows.length < 2) return null;
  const endUs = Math.max(1, ...rows.map((r) => r.doneUs));
  const head = (label: string, source: string) => (
    <th scope="col">
      {label}
      <span className="source">{source}</span>
    </th>
  );
  return (
    <section className="compare" data-testid="compare-table" aria-label="The runs compared">
      <p className="compare-caption">
        {same ? `${rows.length} ways to run ${rows[0]!.title}, compared` : `${rows.length} runs of different workloads: compare with care`}
        {rows.some((r) => r.repeats > 1) && <span className="source"> medians over each run’s repeats; phases of the repeat shown</span>}
      </p>
      {/* Wider than a phone: the table scrolls inside this region (scroll-x, views/app/controls.css). */}
      <div className="scroll-x compare-scroll" ref={scroller} data-testid="compare-scroll" {...scrollProps}>
        <table>
          <thead>
            <tr>
              <th scope="col">Run</th>
              {head('Total time', COMPARE_SOURCES.durationUs)}
              {head('Against the fastest', COMPARE_SOURCES.versusFastest)}
              {head('ops/s', COMPARE_SOURCES.opsPerSec)}
              {head('Client writes', COMPARE_SOURCES.clientWrites)}
              {head('TCP segments out', COMPARE_SOURCES.tcpSegmentsOut)}
              {head('Redis reads', COMPARE_SOURCES.redisReads)}
              {head('Round trips', COMPARE_SOURCES.roundTrips)}
              {head('Where the time went', COMPARE_SOURCES.phases)}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={r.key} data-testid="compare-row" data-mode={shown[i]?.run.mode} data-client={r.client ?? undefined} className={r.fastest ? 'fastest' : undefined}>
                <th scope="row">
                  {r.mode}
                  {r.incomplete !== null && (
                    <span className="incomplete-mark compare-incomplete" data-testid="compare-incomplete">
                      {r.incomplete}
                    </span>
                  )}
                  {r.client !== null && <span className="compare-title" data-testid="compare-client">{r.client}</span>}
                  {!same && <span className="compare-title">{r.title}</span>}
                </th>
                <td data-metric="duration" data-value={r.durationUs}>
                  {formatUs(r.durationUs)}
                  {r.measuredUntil !== null && <span className="source">measured {r.measuredUntil}</span>}
                </td>
                <td data-metric="versus-fastest">{r.versusFastest ?? (r.fastest ? 'fastest' : r.incomplete === null ? 'lowest median' : '—')}</td>
                <td data-metric="ops" data-value={r.opsPerSec}>
                  {formatRate(r.opsPerSec)}
                  {r.incomplete !== null && <span className="source">over what was measured</span>}
                </td>
                <td data-metric="client-writes" data-value={r.clientWrites}>
                  {formatCount(r.clientWrites)}
                </td>
                <td data-metric="tcp-segments" data-value={r.tcpSegmentsOut ?? ''}>
                  {r.tcpSegmentsOut === null ? '—' : formatCount(r.tcpSegmentsOut)}
                </td>
                <td data-metric="redis-reads" data-value={r.redisReads ?? ''}>
                  {r.redisReads === null ? <span title="Not measured: Redis INFO is read only after a whole run">—</span> : formatCount(r.redisReads)}
                </td>
                <td data-metric="round-trips" data-value={r.roundTrips}>
                  {formatCount(r.roundTrips)}
                </td>
                <td className="phase-cell">
                  <PhaseCell row={r} endUs={endUs} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
