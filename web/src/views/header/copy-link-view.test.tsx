import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { restoreClipboardAfterEach, stubClipboard } from '../../test-support/clipboard-stub.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { CopyLinkView } from './copy-link-view.tsx';

describe('Copy link', () => {
  const view = useReactHost();
  restoreClipboardAfterEach();
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
    // beforeCopy brings the URL up to date first (the display sync's writeNow).
    const beforeCopy = () => history.replaceState(null, '', '/?trace=/t/a.json#command=INCR&n=10&zoom=5-50&t=20');
    view.render(<CopyLinkView runsOutsideLink={false} beforeCopy={beforeCopy} />);
    expect($('copy-link-status')!.getAttribute('aria-live')).toBe('polite');
    history.replaceState(null, '', '/?trace=/t/a.json#command=INCR&n=10&zoom=5-50&t=3');
    await click();
    expect(copied).toEqual([`${location.origin}/?trace=/t/a.json#command=INCR&n=10&zoom=5-50&t=20`]);
    expect($('copy-link-status')!.textContent).toBe('Link copied: it opens these settings, this view, zoom and position.');
    expect($('copy-link-input')).toBeNull();
  });

  it('says honestly that live runs are not in the link', async () => {
    stubClipboard(true, () => Promise.resolve());
    view.render(<CopyLinkView runsOutsideLink />);
    await click();
    expect($('copy-link-status')!.textContent).toMatch(/zoom and position\. The runs themselves are not in the link: export them \(Export\) or use the follow link\.$/);
  });

  it('without a secure context (http on a LAN address) shows the link selected, for Ctrl+C', async () => {
    history.replaceState(null, '', '/#view=sweep&maxDepth=64');
    const writeText = vi.fn(() => Promise.resolve());
    stubClipboard(false, writeText);
    view.render(<CopyLinkView runsOutsideLink={false} />);
    await click();
    expect(writeText).not.toHaveBeenCalled();
    const input = $('copy-link-input') as HTMLInputElement;
    expect(input.value).toBe(`${location.origin}/#view=sweep&maxDepth=64`);
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
    view.render(<CopyLinkView runsOutsideLink={false} />);
    await click();
    expect(($('copy-link-input') as HTMLInputElement).value).toBe(location.href);
    stubClipboard(true);
    act(() => view.host.querySelector<HTMLButtonElement>('.copy-link-popover button')!.click());
    await click();
    expect(($('copy-link-input') as HTMLInputElement).value).toBe(location.href);
  });

  it('clears the status after a while', async () => {
    vi.useFakeTimers();
    try {
      stubClipboard(true, () => Promise.resolve());
      view.render(<CopyLinkView runsOutsideLink={false} statusMs={1000} />);
      await click();
      expect($('copy-link-status')!.textContent).not.toBe('');
      act(() => vi.advanceTimersByTime(1100));
      expect($('copy-link-status')!.textContent).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });
});
