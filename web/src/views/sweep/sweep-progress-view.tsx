// Progress of the running sweep: which run is under way ("run 7 of 33 · depth 16, repeat 1"), a bar
// over all runs (Pipescope's and redis-benchmark's), and the queue position while others go first.
import type { ActiveSweep } from '../../model/active-sweep.ts';
import { progressFraction, sweepProgressText } from '../../format/sweep-text.ts';

export function SweepProgressView({ active }: { active: ActiveSweep | null }) {
  if (!active) return null;
  const percent = Math.floor(progressFraction(active) * 100);
  return (
    <div className="progress-card sweep-progress" aria-live="polite">
      <div className="progress-head">
        <span data-testid="sweep-progress" className={active.position ? 'queued' : ''} data-done={active.done} data-total={active.total}>
          {sweepProgressText(active)}
        </span>
        <span className="progress-count">
          {active.done} / {active.total} runs
        </span>
      </div>
      <div className="progress-track" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label="Sweep runs finished">
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
