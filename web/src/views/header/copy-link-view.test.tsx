import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { restoreClipboardAfterEach, stubClipboard } from '../../test-support/clipboard-stub.ts';
import { MemoryLocation } from '../../test-support/memory-location.ts';
import { PageUrl } from '../../url/page-url.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { CopyLinkView } from './copy-link-view.tsx';

describe('Copy link', () => {
  const view = useReactHost();
  restoreClipboardAfterEach();
  const pageAt = (address = '/') => {
    const addressBar = new MemoryLocation(address);
    return { addressBar, url: new PageUrl(addressBar) };
  };
  const $ = (testid: string) => view.host.querySelector<HTMLElement>(`[data-testid=${testid}]`);
  const click = async () => {
    await act(async () => {
      $('copy-link')!.click();
      await Promise.resolve();
    });
  };

  it('copies the page URL as it stands, ?trace= and hash included, and says what it reproduces', async () => {
    const copied: string[] = [];
    stubClipboard(true, (text) => {
      copied.push(text);
      return Promise.resolve();
    });
    // beforeCopy brings the URL up to date first (the display sync's writeNow); the link is the page store's, read as it stands.
    const { addressBar, url } = pageAt('/?trace=/t/a.json#command=INCR&n=10&valueBytes=16&mode=both&scale=shared&t=3&zoom=5-50');
    const beforeCopy = () => url.update({ display: { t: 20 } }, 'throttled');
    view.render(<CopyLinkView url={url} runsOutsideLink={false} beforeCopy={beforeCopy} />);
    expect($('copy-link-status')!.getAttribute('aria-live')).toBe('polite');
    await click();
    expect(copied).toEqual([`${addressBar.href().split('?')[0]}?trace=/t/a.json#command=INCR&n=10&valueBytes=16&mode=both&scale=shared&t=20&zoom=5-50`]);
    expect($('copy-link-status')!.textContent).toBe('Link copied: it opens these settings, this view, zoom and position.');
    expect($('copy-link-input')).toBeNull();
  });

  it('says honestly that live runs are not in the link', async () => {
    stubClipboard(true, () => Promise.resolve());
    view.render(<CopyLinkView url={pageAt().url} runsOutsideLink />);
    await click();
    expect($('copy-link-status')!.textContent).toMatch(/zoom and position\. The runs themselves are not in the link: export them \(Export\) or use the follow link\.$/);
  });

  it('after a run kept by the backend: says it opens the runs, how long such a link lives, and which runs it cannot bring', async () => {
    stubClipboard(true, () => Promise.resolve());
    view.render(<CopyLinkView url={pageAt().url} runsOutsideLink={false} keptRuns={10} runsOnScreen={10} />);
    await click();
    expect($('copy-link-status')!.textContent).toBe(
      'Link copied: it opens these 10 runs, these settings, this view, zoom and position. The link shows these runs while this Pipescope keeps running: ' +
        'it keeps the last 240 runs it measured (at most 64 MiB), and forgets them when it stops. For a copy that lasts, use Export → Trace (JSON).',
    );
    view.render(<CopyLinkView url={pageAt().url} runsOutsideLink keptRuns={3} runsOnScreen={4} />);
    await click();
    expect($('copy-link-status')!.textContent).toMatch(
      /^Link copied: it opens 3 of the 4 runs on screen, these settings, this view, zoom and position\. The others are not in it \(cut short, too big to keep, or not measured here\): export them \(Export\)\. The link shows these runs while/,
    );
  });

  it('without a secure context (http on a LAN address) shows the link selected, for Ctrl+C', async () => {
    const { addressBar, url } = pageAt('/#view=sweep&command=PING&maxDepth=64&perPoint=10000&repeats=3&reference=1');
    const writeText = vi.fn(() => Promise.resolve());
    stubClipboard(false, writeText);
    view.render(<CopyLinkView url={url} runsOutsideLink={false} />);
    await click();
    expect(writeText).not.toHaveBeenCalled();
    const input = $('copy-link-input') as HTMLInputElement;
    expect(input.value).toBe(addressBar.href());
    expect(document.activeElement).toBe(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, input.value.length]);
    expect(input.closest('[role=dialog]')!.hasAttribute('data-own-keys')).toBe(true);
    expect($('copy-link')!.getAttribute('aria-expanded')).toBe('true');
    expect($('copy-link-status')!.textContent).toBe('Press Ctrl+C to copy the selected link: it opens these settings, this view, zoom and position.');
    // Escape closes it and gives focus back to the button.
    act(() => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    expect($('copy-link-input')).toBeNull();
    expect(document.activeElement).toBe($('copy-link'));
  });

  it('falls back the same way when the clipboard refuses, or there is none', async () => {
    stubClipboard(true, () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')));
    const { addressBar, url } = pageAt('/#command=INCR&n=10&valueBytes=16&mode=both&scale=shared');
    view.render(<CopyLinkView url={url} runsOutsideLink={false} />);
    await click();
    expect(($('copy-link-input') as HTMLInputElement).value).toBe(addressBar.href());
    stubClipboard(true);
    act(() => view.host.querySelector<HTMLButtonElement>('.copy-link-popover button')!.click());
    await click();
    expect(($('copy-link-input') as HTMLInputElement).value).toBe(addressBar.href());
  });

  it('clears the status after a while', async () => {
    vi.useFakeTimers();
    try {
      stubClipboard(true, () => Promise.resolve());
      view.render(<CopyLinkView url={pageAt().url} runsOutsideLink={false} statusMs={1000} />);
      await click();
      expect($('copy-link-status')!.textContent).not.toBe('');
      act(() => vi.advanceTimersByTime(1100));
      expect($('copy-link-status')!.textContent).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });
});
