// Progress of the active request: one bar for the whole request (replies received / commands asked,
// over all its modes and repeats; until certain, up to the next check where it may stop) plus a line per
// mode (which repeat is under way, and the time left at the current rate; none once Cancel was pressed),
// and the queue position while other requests go first (the backend serves connections in turn, so the
// position can grow when another tab joins). A request cut short (runs of a second or more run once) simply ends.
import type { ActiveRequest } from '../../live/live-run-tracker.ts';
import { formatCount, formatUs, plural } from '../../format/number-format.ts';
import { etaUs } from '../../format/rtt-estimate.ts';
import { modePhrase } from '../../format/run-label.ts';
import './run-progress-view.css';

export function RunProgressView({ active }: { active: ActiveRequest | null }) {
  if (!active) return null;
  const total = active.progress.reduce((s, p) => s + p.n * p.runs, 0);
  const replied = active.progress.reduce((s, p) => s + p.n * p.runsDone + (p.done ? 0 : p.replied), 0);
  const percent = total > 0 ? Math.floor((replied / total) * 100) : 0;
  const status =
    active.cancelling ? 'cancelling…'
    : active.position === null ? 'sending…'
    : active.position > 0 ? `waiting: ${plural(active.position, 'request')} ahead (tabs take turns)`
    : 'running';
  return (
    <div className="progress-card" aria-live="polite">
      <div className="progress-head">
        <span data-testid="queue-position" className={active.position ? 'queued' : ''} data-position={active.position ?? ''}>
          {status}
        </span>
        <span className="progress-count">
          {formatCount(replied)} / {formatCount(total)} replies
        </span>
      </div>
      <div className="progress-track" data-testid="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label="Replies received">
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <ul className="progress-modes">
        {active.progress.map((p) => (
          <li key={p.mode}>
            <span className={`mode-dot ${p.mode}`} />
            {modePhrase(p.mode, active.spec.chunk)}:{' '}
            {p.done ? (p.runs > 1 ? `${p.runs} runs done` : 'done') : `${p.runs > 1 ? `run ${p.runsDone + 1} of ${p.runs}${p.upTo ? ` (until certain: a check after ${p.runs}, at most ${p.limit})` : ''} · ` : ''}${formatCount(p.replied)} / ${formatCount(p.n)}`}
            {/* No time left once Cancel was pressed: the run is stopping, and a count would say it goes on. */}
            {!p.done && !active.cancelling && etaUs(p) !== undefined && (
              <span className="progress-eta" data-testid="eta"> · about {formatUs(etaUs(p)!)} left at this rate</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
