// The player's compact control bar, plain DOM (no React): previous event, play/pause, next event, a
// scrubber over the shared time axis, where the playhead is ("1.23 ms of 4.56 ms", format/playback-text.ts)
// and the speed. It only reads and moves the PlaybackClock, and updates itself when the clock changes;
// the diagrams repaint from the clock themselves. data-testid hooks match the app's playback bar.
import { speedChoices, type PlaybackClock, type PlaybackSnapshot } from '../interaction/playback-clock.ts';
import { PLAYBACK_ICONS } from '../paint/playback-icons.ts';
import { positionText, speedLabel } from '../format/playback-text.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';

export class ControlBar {
  readonly element: HTMLDivElement;
  private readonly toggle: HTMLButtonElement;
  private readonly previous: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private readonly scrubber: HTMLInputElement;
  private readonly position: HTMLSpanElement;
  private readonly speed: HTMLSelectElement;
  private readonly unsubscribe: () => void;
  private speedsShown = '';

  constructor(private readonly clock: PlaybackClock) {
    this.element = el('div', 'player-bar');
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-label', 'Playback');
    this.element.dataset['testid'] = 'playback-bar';
    this.previous = button('playback-previous', 'Previous event (←)', PLAYBACK_ICONS.previous, () => clock.stepBack());
    this.toggle = button('playback-toggle', 'Play (Space)', PLAYBACK_ICONS.play, () => clock.toggle());
    this.next = button('playback-next', 'Next event (→)', PLAYBACK_ICONS.next, () => clock.stepForward());
    this.scrubber = el('input', 'player-scrubber');
    this.scrubber.type = 'range';
    this.scrubber.min = '0';
    this.scrubber.step = 'any';
    this.scrubber.dataset['testid'] = 'playback-scrubber';
    this.scrubber.setAttribute('aria-label', 'Playback position');
    this.scrubber.addEventListener('input', () => clock.seek(Number(this.scrubber.value)));
    this.position = el('span', 'player-position');
    this.position.dataset['testid'] = 'playback-position';
    const speedLabelEl = el('label', 'player-speed');
    this.speed = el('select');
    this.speed.dataset['testid'] = 'playback-speed';
    this.speed.title = 'Trace time per wall-clock time';
    this.speed.addEventListener('change', () => clock.setSpeed(Number(this.speed.value)));
    speedLabelEl.append('Speed', this.speed);
    this.element.append(this.previous, this.toggle, this.next, this.scrubber, this.position, speedLabelEl);
    this.unsubscribe = clock.subscribe(() => this.update(clock.getSnapshot()));
    this.update(clock.getSnapshot());
  }

  destroy(): void {
    this.unsubscribe();
    this.element.remove();
  }

  private update({ positionUs, playing, speed, endUs }: PlaybackSnapshot): void {
    const disabled = endUs <= 0;
    for (const b of [this.previous, this.toggle, this.next]) b.disabled = disabled;
    this.scrubber.disabled = disabled;
    const label = playing ? 'Pause (Space)' : 'Play (Space)';
    this.toggle.setAttribute('aria-label', label);
    this.toggle.title = label;
    this.toggle.querySelector('path')!.setAttribute('d', playing ? PLAYBACK_ICONS.pause : PLAYBACK_ICONS.play);
    this.scrubber.max = String(Math.max(endUs, 1));
    this.scrubber.value = String(positionUs ?? endUs);
    const where = positionText(positionUs, endUs);
    this.scrubber.setAttribute('aria-valuetext', where);
    this.position.textContent = where;
    const speeds = speedChoices(speed); // with the current one when it came from elsewhere (an attribute)
    const key = speeds.join(',');
    if (key !== this.speedsShown) {
      this.speedsShown = key;
      this.speed.replaceChildren(...speeds.map((s) => {
        const option = el('option');
        option.value = String(s);
        option.textContent = speedLabel(s);
        return option;
      }));
    }
    this.speed.value = String(speed);
  }
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className) element.className = className;
  return element;
}

function button(testid: string, label: string, icon: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', 'player-button');
  b.type = 'button';
  b.dataset['testid'] = testid;
  b.setAttribute('aria-label', label);
  b.title = label;
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('width', '14');
  svg.setAttribute('height', '14');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('d', icon);
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  b.append(svg);
  b.addEventListener('click', onClick);
  return b;
}
