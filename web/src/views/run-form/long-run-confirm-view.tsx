// Asks before a run that would take minutes (a sequential run's N round trips, or a chunked run's one
// per pipeline, at the chosen RTT): run it anyway, or run an N that takes about a minute. A presenter
// should never be stuck waiting by surprise.
import { formatCount, formatUs } from '../../format/number-format.ts';
import type { LongRun } from '../../format/rtt-estimate.ts';
import './long-run-confirm-view.css';

interface Props {
  n: number;
  rttMs: number;
  longRun: LongRun;
  onRunAnyway: () => void;
  onReduce: (n: number) => void;
  onDismiss: () => void;
}

export function LongRunConfirmView({ n, rttMs, longRun, onRunAnyway, onReduce, onDismiss }: Props) {
  return (
    <div className="long-run-confirm" role="alertdialog" aria-labelledby="long-run-title" data-testid="long-run-confirm">
      <p id="long-run-title">
        <strong>
          This {longRun.mode === 'sequential' ? 'sequential run' : 'chunked run'} should take about {formatUs(longRun.expectedUs)}
        </strong>
        : {formatCount(longRun.roundTrips)} round trips of{' '}
        {rttMs > 0 ? `${rttMs} ms added delay plus the connection's own RTT` : "the connection's RTT"}.
      </p>
      <div className="long-run-actions">
        <button type="button" className="button primary" data-testid="reduce-n" onClick={() => onReduce(longRun.suggestedN)}>
          Run N = {formatCount(longRun.suggestedN)} instead (about a minute)
        </button>
        <button type="button" className="button" data-testid="run-anyway" onClick={onRunAnyway}>
          Run all {formatCount(n)}
        </button>
        <button type="button" className="link-button" onClick={onDismiss}>
          Back
        </button>
      </div>
    </div>
  );
}
