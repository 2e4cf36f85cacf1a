// Instruments a page of the app for the browser benchmarks, from inside the page (its own clock,
// performance.now(), so that nothing of the remote-control round trip counts):
// - when a panel of n commands is first completely drawn: every command drawn and no repaint
//   pending, seen by a MutationObserver the moment the frame scheduler sets those attributes;
// - what each frame that follows an input costs the main thread: from the input event to the end of
//   the frame's rendering update (rAF callbacks, style, layout, paint), with its rAF-to-done part;
// - when each WebSocket message arrives, with its length and type (read from its first bytes, not
//   parsed, so that watching costs the page next to nothing).
import type { Page } from 'playwright-core';

export interface FrameCost {
  /** Input event → the frame's rendering update done, ms. */
  totalMs: number;
  /** The frame's rAF callbacks → its rendering update done, ms. */
  frameMs: number;
}

export interface SocketMessage {
  atMs: number;
  length: number;
  type: string;
}

interface BenchWindow {
  __benchDrawn?: Promise<number>;
  __benchFrames?: FrameCost[];
  __benchMessages?: SocketMessage[];
}

/** Before the page's own scripts: the drawn-panel watch and the WebSocket message log. */
export async function instrumentPage(page: Page, n: number): Promise<void> {
  await page.addInitScript((commands: number) => {
    const w = window as unknown as BenchWindow;
    w.__benchDrawn = new Promise<number>((resolve) => {
      const drawn = () =>
        document.documentElement.dataset['renderPending'] === 'false' &&
        document.querySelector(`[data-testid=run-panel][data-n="${commands}"]`)?.getAttribute('data-commands-drawn') === String(commands);
      const observer = new MutationObserver(() => {
        if (!drawn()) return;
        observer.disconnect();
        resolve(performance.mark('bench:drawn').startTime);
      });
      observer.observe(document, { attributes: true, subtree: true, attributeFilter: ['data-render-pending', 'data-commands-drawn'] });
    });
    const messages: SocketMessage[] = (w.__benchMessages = []);
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        // Added before the app sets onmessage, so it runs first: the arrival time excludes the app's work.
        this.addEventListener('message', (event: MessageEvent) => {
          const data = typeof event.data === 'string' ? event.data : '';
          const type = /^\{"type":"([a-z-]+)"/.exec(data.slice(0, 32))?.[1] ?? '?';
          messages.push({ atMs: type === 'run-end' ? performance.mark('bench:run-end').startTime : performance.now(), length: data.length, type });
        });
      }
    };
  }, n);
}

/** performance.now() of the first frame with the whole panel drawn. */
export function drawnAtMs(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as BenchWindow).__benchDrawn!);
}

export function socketMessages(page: Page): Promise<SocketMessage[]> {
  return page.evaluate(() => (window as unknown as BenchWindow).__benchMessages ?? []);
}

/** From now on, each frame that follows wheel or pointer input is timed. */
export async function startFrameTiming(page: Page): Promise<void> {
  await page.evaluate(() => {
    const frames: FrameCost[] = ((window as unknown as BenchWindow).__benchFrames = []);
    let inputAt: number | null = null;
    const onInput = () => {
      if (inputAt !== null) return; // the frame for an earlier input is still to come
      inputAt = performance.now();
      // Asked for here, before the app's own repaint request, so this callback opens the frame.
      requestAnimationFrame(() => {
        const frameAt = performance.now();
        const channel = new MessageChannel();
        // A message posted from rAF is handled after that frame's rendering update.
        channel.port1.onmessage = () => {
          const done = performance.now();
          frames.push({ totalMs: done - inputAt!, frameMs: done - frameAt });
          inputAt = null;
        };
        channel.port2.postMessage(null);
      });
    };
    for (const type of ['wheel', 'pointermove', 'pointerdown', 'pointerup']) window.addEventListener(type, onInput, { capture: true, passive: true });
  });
}

export function frameCosts(page: Page): Promise<FrameCost[]> {
  return page.evaluate(() => (window as unknown as BenchWindow).__benchFrames ?? []);
}

/** Resolves after the next frame has been rendered. */
export function nextFrame(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}
