// The one tooltip of the page (role=tooltip), written directly into the DOM so hover and keyboard
// focus never re-render React. Whichever diagram hovers last owns it. A <pipescope-player> keeps its own
// tooltip inside its shadow root (the host argument), where its styles apply and its id stays private.
import type { CommandDetails } from '../format/command-details.ts';

/** Where a tooltip is appended: the page's body (the app), or a player's shadow root. */
export type TooltipHost = HTMLElement | ShadowRoot;

/** One tooltip per host. */
const tooltips = new WeakMap<TooltipHost, HTMLDivElement>();

function tooltipElement(host: TooltipHost): HTMLDivElement {
  const existing = tooltips.get(host);
  if (existing && existing.isConnected) return existing;
  const element = document.createElement('div');
  element.className = 'tooltip';
  element.setAttribute('role', 'tooltip');
  element.id = 'pipescope-tooltip';
  element.hidden = true;
  host.append(element);
  tooltips.set(host, element);
  return element;
}

export function showTooltip(details: CommandDetails, clientX: number, clientY: number, extra?: string, host: TooltipHost = document.body): void {
  const tip = tooltipElement(host);
  tip.replaceChildren();
  const title = document.createElement('div');
  title.className = 'tooltip-title';
  title.textContent = details.title;
  const table = document.createElement('dl');
  for (const row of details.rows) {
    const dt = document.createElement('dt');
    dt.textContent = row.label;
    const dd = document.createElement('dd');
    writeValue(dd, row.value, row.emphasis);
    if (row.label === 'reply' && row.value.startsWith('error')) dd.className = 'tooltip-error';
    table.append(dt, dd);
  }
  tip.append(title, table);
  if (extra) {
    const more = document.createElement('div');
    more.className = 'tooltip-extra';
    more.textContent = extra;
    tip.append(more);
  }
  const note = document.createElement('div');
  note.className = 'tooltip-note';
  note.textContent = details.note;
  tip.append(note);
  tip.hidden = false;
  // Beside the pointer, kept inside the window.
  const { width, height } = tip.getBoundingClientRect();
  const x = Math.min(clientX + 16, window.innerWidth - width - 8);
  const y = clientY + 16 + height > window.innerHeight ? clientY - height - 12 : clientY + 16;
  tip.style.transform = `translate(${Math.max(8, x)}px, ${Math.max(8, y)}px)`;
}

/** The value as text, its emphasised part (a key's {hash tag}) in a <span class="hash-tag">. */
function writeValue(dd: HTMLElement, value: string, emphasis: string | undefined): void {
  const at = emphasis ? value.indexOf(emphasis) : -1;
  if (at < 0 || !emphasis) {
    dd.textContent = value;
    return;
  }
  const tag = document.createElement('span');
  tag.className = 'hash-tag';
  tag.textContent = emphasis;
  dd.append(value.slice(0, at), tag, value.slice(at + emphasis.length));
}

export function hideTooltip(host: TooltipHost = document.body): void {
  const tip = tooltips.get(host);
  if (!tip || tip.hidden) return;
  tip.hidden = true;
  tip.replaceChildren();
}
