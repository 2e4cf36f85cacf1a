// The sweep's numbers under the chart, one row per depth: our ops/s (median [min–max]), the speed-up
// over the first depth, Redis read events and client socket writes per command, Redis's CPU time per
// command (falling with depth as commands share Redis's reads, writes and event-loop turns), and
// redis-benchmark's ops/s at the same depth. A figure not measured (yet) is a dash.
import { formatCount, formatRatio, formatUs } from '../../format/number-format.ts';
import { formatDepth, formatSpeedUp } from '../../format/sweep-text.ts';
import type { DepthSpread, SweepRow } from '../../model/sweep-series.ts';
import { useSidewaysScroll } from '../app/use-sideways-scroll.ts';

function Rate({ point }: { point: DepthSpread | null }) {
  if (!point) return <span className="none">—</span>;
  const { median, min, max } = point.spread;
  return (
    <>
      {formatCount(Math.round(median))}
      {min !== max && (
        <span className="range">
          {' '}[{formatCount(Math.round(min))}–{formatCount(Math.round(max))}]
        </span>
      )}
    </>
  );
}

function Ratio({ point }: { point: DepthSpread | null }) {
  if (!point) return <span className="none">—</span>;
  const { median, min, max } = point.spread;
  return (
    <>
      {formatRatio(median)}
      {min !== max && <span className="range"> [{formatRatio(min)}–{formatRatio(max)}]</span>}
    </>
  );
}

function Micros({ point }: { point: DepthSpread | null }) {
  if (!point) return <span className="none">—</span>;
  const { median, min, max } = point.spread;
  return (
    <>
      {formatUs(median)}
      {min !== max && <span className="range"> [{formatUs(min)}–{formatUs(max)}]</span>}
    </>
  );
}

/** Where the CPU column's figures come from, as its header says. */
const CPU_SOURCE_NOTE = { 'proc-schedstat': 'kernel (schedstat)', 'redis-info-cpu': 'INFO cpu' } as const;

export function SweepTableView({ rows, baseDepth, hasReference, cpuSource = null }: { rows: readonly SweepRow[]; baseDepth: number | null; hasReference: boolean; cpuSource?: keyof typeof CPU_SOURCE_NOTE | null }) {
  const base = baseDepth === null ? 'first depth' : `depth ${formatDepth(baseDepth)}`;
  const [scroller, scrollProps] = useSidewaysScroll('Sweep figures, a table that scrolls sideways');
  return (
    <div className="sweep-table-card scroll-x" ref={scroller} {...scrollProps}>
      <table className="sweep-table" data-testid="sweep-table">
        <thead>
          <tr>
            <th scope="col">depth</th>
            <th scope="col">
              ops/s <span className="th-note">median [min–max] · client socket</span>
            </th>
            <th scope="col">× {base}</th>
            <th scope="col">
              Redis reads / command <span className="th-note">INFO</span>
            </th>
            <th scope="col">
              client writes / command <span className="th-note">socket</span>
            </th>
            {cpuSource && (
              <th scope="col">
                Redis CPU / command <span className="th-note">{CPU_SOURCE_NOTE[cpuSource]}</span>
              </th>
            )}
            {hasReference && (
              <>
                <th scope="col">
                  redis-benchmark ops/s <span className="th-note">-c 1 -P depth</span>
                </th>
                <th scope="col">× its first depth</th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.depth} data-testid="sweep-row" data-depth={row.depth}>
              <th scope="row">{formatDepth(row.depth)}</th>
              <td>
                <Rate point={row.ours} />
              </td>
              <td>{row.speedUp === null ? <span className="none">—</span> : formatSpeedUp(row.speedUp)}</td>
              <td>
                <Ratio point={row.serverReads} />
              </td>
              <td>
                <Ratio point={row.clientWrites} />
              </td>
              {cpuSource && (
                <td data-testid="sweep-cpu" data-depth={row.depth} data-value={row.serverCpu?.spread.median}>
                  <Micros point={row.serverCpu} />
                </td>
              )}
              {hasReference && (
                <>
                  <td>
                    <Rate point={row.reference} />
                  </td>
                  <td>{row.referenceSpeedUp === null ? <span className="none">—</span> : formatSpeedUp(row.referenceSpeedUp)}</td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
