// The brief "Ctrl + wheel to zoom" note over a diagram, shown where the pointer is when a plain wheel
// scrolled the page past it (interaction/wheel-hint-policy.ts decides when). It fades in and out by CSS
// (paint/diagram.css, .wheel-hint; no fade under reduced motion) and is removed after HINT_MS. It only
// repeats what the results toolbar says in words, so it is hidden from assistive technology.

/** How long the hint stays, ms (its CSS animation runs the same time). */
export const HINT_MS = 2_400;

const hints = new WeakMap<HTMLElement, { element: HTMLDivElement; timer: ReturnType<typeof setTimeout> }>();

/** Shows `text` over `host` (a .diagram-host), centred, at `y` CSS px from its top (kept inside it). */
export function showWheelHint(host: HTMLElement, y: number, text: string): HTMLDivElement {
  hideWheelHint(host);
  const element = document.createElement('div');
  element.className = 'wheel-hint';
  element.dataset['testid'] = 'wheel-hint';
  element.setAttribute('aria-hidden', 'true');
  element.textContent = text;
  const height = host.clientHeight;
  element.style.top = `${height > 0 ? Math.max(16, Math.min(height - 48, y)) : y}px`;
  host.append(element);
  hints.set(host, { element, timer: setTimeout(() => hideWheelHint(host), HINT_MS) });
  return element;
}

export function hideWheelHint(host: HTMLElement): void {
  const hint = hints.get(host);
  if (!hint) return;
  clearTimeout(hint.timer);
  hint.element.remove();
  hints.delete(host);
}
