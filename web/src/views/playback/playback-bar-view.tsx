// The playback bar above the diagrams: play/pause, step back/forward, a scrubber over the shared time
// axis with the runs' milestones marked on it (click one to go there), the speed, where the playhead
// is, and "Show all" to leave playback. It only reads and moves the PlaybackClock; the diagrams repaint
// from the clock themselves. data-position-us / data-playing / data-speed are for tests.
import { useRef, useSyncExternalStore } from 'react';
import { speedChoices, type PlaybackClock } from '../../interaction/playback-clock.ts';
import { PLAYBACK_ICONS } from '../../paint/playback-icons.ts';
import { positionText, speedLabel } from '../../format/playback-text.ts';
import type { Milestone } from '../../model/playback-events.ts';
import { useElementWidth } from '../run/use-element-width.ts';
import './playback-bar-view.css';

/** A milestone of one of the runs shown; `run` names the run when several are shown ("pipeline"). */
export interface BarMilestone extends Milestone {
  run: string | null;
}

interface Props {
  clock: PlaybackClock;
  milestones: readonly BarMilestone[];
  /** Opens the keyboard help (as `?` does). */
  onHelp: () => void;
}

/** A marker's label is printed only this far (px) from the previous printed one; the rest keep theirs as a tooltip. */
const LABEL_SPACING_PX = 84;

export function PlaybackBarView({ clock, milestones, onHelp }: Props) {
  const { positionUs, playing, speed, endUs } = useSyncExternalStore(clock.subscribe, clock.getSnapshot);
  const trackRef = useRef<HTMLDivElement>(null);
  const trackWidth = useElementWidth(trackRef, 600);
  const disabled = endUs <= 0;
  const where = positionText(positionUs, endUs);
  const speeds = speedChoices(speed); // with the current one when it came from elsewhere (a URL)
  let lastLabelPx = Number.NEGATIVE_INFINITY;
  return (
    <div
      className="playback-bar"
      role="group"
      aria-label="Playback"
      data-testid="playback-bar"
      data-position-us={positionUs ?? ''}
      data-playing={playing}
      data-speed={speed}
    >
      <button type="button" className="button playback-button" data-testid="playback-previous" onClick={() => clock.stepBack()} disabled={disabled} aria-label="Previous event (←)" title="Previous event (←)">
        <Icon d={PLAYBACK_ICONS.previous} />
      </button>
      <button
        type="button"
        className="button playback-button playback-toggle"
        data-testid="playback-toggle"
        onClick={() => clock.toggle()}
        disabled={disabled}
        aria-label={playing ? 'Pause (Space)' : 'Play (Space)'}
        title={playing ? 'Pause (Space)' : 'Play (Space)'}
      >
        <Icon d={playing ? PLAYBACK_ICONS.pause : PLAYBACK_ICONS.play} />
      </button>
      <button type="button" className="button playback-button" data-testid="playback-next" onClick={() => clock.stepForward()} disabled={disabled} aria-label="Next event (→)" title="Next event (→)">
        <Icon d={PLAYBACK_ICONS.next} />
      </button>
      <div className="playback-track" ref={trackRef}>
        <div className="playback-milestones">
          {endUs > 0 &&
            milestones.map((m) => {
              const px = (m.atUs / endUs) * trackWidth;
              // Near the right end the label goes left of its tick, so it stays over the track: then it needs
              // room for itself too before its tick, past the previous label (a phone's narrow track).
              const flipped = px > trackWidth - LABEL_SPACING_PX;
              const printed = px - lastLabelPx >= (flipped ? 2 : 1) * LABEL_SPACING_PX;
              if (printed) lastLabelPx = px;
              const name = m.run ? `${m.run}: ${m.label}` : m.label;
              return (
                <button
                  key={`${m.run ?? ''}-${m.kind}-${m.chunk ?? 0}`}
                  type="button"
                  className={`playback-milestone ${m.kind}${flipped ? ' flipped' : ''}${printed ? ' labelled' : ''}`}
                  data-testid="playback-milestone"
                  data-kind={m.kind}
                  data-at-us={m.atUs}
                  style={{ left: `${(m.atUs / endUs) * 100}%` }}
                  onClick={() => clock.seek(m.atUs)}
                  aria-label={`Go to ${name}`}
                  title={`${name} · ${positionText(m.atUs, endUs)}`}
                >
                  {printed ? m.label : ''}
                </button>
              );
            })}
        </div>
        <input
          type="range"
          className="playback-scrubber"
          data-testid="playback-scrubber"
          min={0}
          max={Math.max(endUs, 1)}
          step="any"
          value={positionUs ?? endUs}
          disabled={disabled}
          aria-label="Playback position"
          aria-valuetext={where}
          onChange={(e) => clock.seek(Number(e.target.value))}
        />
      </div>
      <span className="playback-position" data-testid="playback-position" aria-live="off">
        {where}
      </span>
      <label className="playback-speed">
        <span>Speed</span>
        <select data-testid="playback-speed" value={speed} onChange={(e) => clock.setSpeed(Number(e.target.value))} title="Trace time per wall-clock time (+ and − change it)">
          {speeds.map((s) => (
            <option key={s} value={s}>
              {speedLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button" data-testid="playback-show-all" onClick={() => clock.seek(null)} disabled={positionUs === null} title="Leave playback: draw the whole run">
        Show all
      </button>
      <button type="button" className="link-button playback-help" data-testid="playback-help" onClick={onHelp} aria-label="Keys ?: keyboard shortcuts" title="Keyboard shortcuts (?)">
        Keys ?
      </button>
    </div>
  );
}

/** A 16×16 glyph in the text colour (the fonts' media symbols vary too much). */
function Icon({ d }: { d: string }) {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={d} fill="currentColor" />
    </svg>
  );
}
