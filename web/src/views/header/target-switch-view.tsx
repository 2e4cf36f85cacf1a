// The header's switch between Pipescope's private Redis and its private Redis Cluster, beside the
// connection pill, on a backend that offers both (hello.targets; a user's own Redis offers no switch and
// none is drawn). Two radio buttons drawn as one segmented control (arrow keys move between them), named
// for screen readers; the pick goes in the page's link (target=) and to the backend, which starts the
// cluster when it is first picked. Beside it a live note says how that goes: "starting the private
// cluster…", then "ready in 2.2 s" (for a while), or why it failed. Runs already sent keep their target.
import { useEffect, useState } from 'react';
import type { TargetName } from '../../../../trace/protocol/live-protocol.ts';
import type { TargetChoice } from '../../live/target-choice.ts';
import { runTargetOf } from '../../live/target-choice.ts';
import './target-switch-view.css';

const LABELS: Record<TargetName, string> = { single: 'Redis', cluster: 'Cluster' };
const HINTS: Record<TargetName, string> = {
  single: 'Pipescope’s private redis-server: one Redis',
  cluster: 'Pipescope’s private Redis Cluster: three masters on loopback, started when first picked',
};
/** How long "ready in …" stays beside the switch (ms). */
const READY_NOTE_MS = 8_000;

/** The note beside the switch for the picked target's start: null when there is nothing to say. */
export function targetNote(choice: TargetChoice): { text: string; kind: 'busy' | 'done' | 'bad' } | null {
  const target = runTargetOf(choice);
  if (target === undefined) return null;
  const progress = choice.progress[target];
  const what = target === 'cluster' ? 'the private cluster' : 'the private Redis';
  if (!progress || progress.state === 'off' || progress.state === 'starting') return { text: `starting ${what}…`, kind: 'busy' };
  if (progress.state === 'failed') return { text: `${what} did not start: ${progress.message ?? 'no reason given'}`, kind: 'bad' };
  if (progress.startedHere && progress.readyMs !== undefined) return { text: `${what} ready in ${(progress.readyMs / 1000).toFixed(1)} s`, kind: 'done' };
  return null;
}

export function TargetSwitchView({ choice, onPick }: { choice: TargetChoice; onPick: (target: TargetName) => void }) {
  const offered = choice.offered;
  const current = runTargetOf(choice);
  const note = targetNote(choice);
  // "ready in …" is news: shown for a while after it came, then the pill says the rest.
  const [fresh, setFresh] = useState(false);
  useEffect(() => {
    if (note?.kind !== 'done') return undefined;
    setFresh(true);
    const timer = setTimeout(() => setFresh(false), READY_NOTE_MS);
    return () => clearTimeout(timer);
  }, [note?.kind, note?.text]);
  if (!offered || current === undefined) return null;
  const shown = note && (note.kind !== 'done' || fresh) ? note : null;
  return (
    <div className="target-switch-wrap">
      <fieldset className="target-switch" data-testid="target-switch">
        <legend className="visually-hidden">Redis to measure</legend>
        {offered.offered.map((target) => (
          <label key={target} className={target === current ? 'on' : ''} title={HINTS[target]}>
            <input
              type="radio"
              className="visually-hidden"
              name="redis-target"
              value={target}
              checked={target === current}
              aria-describedby="target-switch-note"
              data-testid={`target-${target}`}
              onChange={() => onPick(target)}
            />
            {LABELS[target]}
          </label>
        ))}
      </fieldset>
      <span id="target-switch-note" className={`target-switch-note ${shown?.kind ?? ''}`} role="status" data-testid="target-note">
        {shown?.text ?? ''}
      </span>
    </div>
  );
}
