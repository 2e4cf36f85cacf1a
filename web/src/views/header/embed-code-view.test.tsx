import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { restoreClipboardAfterEach, stubClipboard } from '../../test-support/clipboard-stub.ts';
import { MemoryLocation } from '../../test-support/memory-location.ts';
import { PageUrl } from '../../url/page-url.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { pipelineTrace, sequentialTrace } from '../../test-support/trace-fixtures.ts';
import { EmbedCodeView } from './embed-code-view.tsx';

describe('Copy embed code', () => {
  const view = useReactHost();
  restoreClipboardAfterEach();
  const pageAt = (address = '/') => {
    const addressBar = new MemoryLocation(address);
    return { addressBar, url: new PageUrl(addressBar) };
  };
  const origin = new MemoryLocation().href().replace(/\/$/, '');
  const $ = <T extends HTMLElement = HTMLElement>(testid: string) => view.host.querySelector<T>(`[data-testid=${testid}]`);
  const press = async (testid: string) => {
    await act(async () => {
      $(testid)!.click();
      await Promise.resolve();
    });
  };
  const traces = [sequentialTrace(3), pipelineTrace(3)];

  it('opens a dialog with both snippets for the ?trace= links on screen, the theme and the playhead, and copies each', async () => {
    const copied: string[] = [];
    stubClipboard(true, (text) => {
      copied.push(text);
      return Promise.resolve();
    });
    // beforeOpen brings the URL's display keys up to date first (the display sync's writeNow).
    const { addressBar, url } = pageAt('/app/?trace=/t/seq.json&trace=/t/pipe.json#theme=dark');
    const beforeOpen = () => addressBar.replace('/app/?trace=/t/seq.json&trace=/t/pipe.json#theme=dark&t=250&speed=0.01');
    view.render(<EmbedCodeView traces={traces} source="url" url={url} beforeOpen={beforeOpen} />);
    expect($('embed-code')!.getAttribute('aria-expanded')).toBe('false');
    await press('embed-code');

    const dialog = $('embed-code-popover')!;
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)!.textContent).toBe('Copy embed code');
    expect(document.activeElement).toBe(dialog);
    expect($('embed-code')!.getAttribute('aria-controls')).toBe(dialog.id);
    expect($('embed-code-export-note')).toBeNull();
    const iframe = $<HTMLTextAreaElement>('embed-code-iframe')!.value;
    const base = `${origin}/app/`;
    expect(iframe).toContain(`<iframe src="${base}embed/?trace=${origin}/t/seq.json&amp;trace=${origin}/t/pipe.json&amp;theme=dark&amp;t=250&amp;speed=0.01"`);
    expect(iframe).toContain('title="Pipescope: Sequential vs one pipeline · 3 × INCR"');
    expect(iframe).toContain('m.type !== "height"');
    expect($<HTMLTextAreaElement>('embed-code-element')!.value).toBe(
      `<script src="${base}pipescope-player.js"></script>\n` +
      `<pipescope-player src="${origin}/t/seq.json ${origin}/t/pipe.json" theme="dark" t="250" speed="0.01"></pipescope-player>`,
    );
    // Each snippet is a labelled text area with its own Copy button.
    expect($('embed-code-iframe')!.closest('label')!.textContent).toMatch(/^Iframe — works in any page/);

    await press('embed-code-copy-iframe');
    expect(copied).toEqual([iframe]);
    expect($('embed-code-status')!.textContent).toBe('Iframe code copied.');
    await press('embed-code-copy-element');
    expect(copied[1]).toBe($<HTMLTextAreaElement>('embed-code-element')!.value);
    expect($('embed-code-status')!.getAttribute('aria-live')).toBe('polite');
  });

  it('names the export files of live runs and says in plain words to export them and put them beside the page', async () => {
    view.render(<EmbedCodeView traces={traces} source="live" url={pageAt().url} />);
    await press('embed-code');
    expect($('embed-code-export-note')!.textContent).toBe(
      'These runs have no web address yet (measured here, or opened from a file), so the code names their files ' +
      'pipescope-sequential-incr-3-test-sequential-3.json, pipescope-pipeline-incr-3-test-pipeline-3.json. Save each trace (Save, on each panel) ' +
      `and put the file next to the page that shows it: for the iframe, in the folder of the embed page (${origin}/embed/); for the custom element, beside your own page.`,
    );
    expect($<HTMLTextAreaElement>('embed-code-element')!.value).toContain(
      'src="pipescope-sequential-incr-3-test-sequential-3.json pipescope-pipeline-incr-3-test-pipeline-3.json" theme="auto"',
    );
  });

  it('without a secure context (http on a LAN address) selects the snippet for Ctrl+C', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    stubClipboard(false, writeText);
    view.render(<EmbedCodeView traces={traces} source="live" url={pageAt().url} />);
    await press('embed-code');
    await press('embed-code-copy-element');
    expect(writeText).not.toHaveBeenCalled();
    const area = $<HTMLTextAreaElement>('embed-code-element')!;
    expect(document.activeElement).toBe(area);
    expect([area.selectionStart, area.selectionEnd]).toEqual([0, area.value.length]);
    expect($('embed-code-status')!.textContent).toBe('Press Ctrl+C (⌘C) to copy the selected code.');
  });

  it('falls back the same way when the clipboard refuses', async () => {
    stubClipboard(true, () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')));
    view.render(<EmbedCodeView traces={traces} source="live" url={pageAt().url} />);
    await press('embed-code');
    await press('embed-code-copy-iframe');
    expect(document.activeElement).toBe($('embed-code-iframe'));
    expect($('embed-code-status')!.textContent).toBe('Press Ctrl+C (⌘C) to copy the selected code.');
  });

  it('closes with Escape or Close, giving focus back to the button; says so when no run is on screen', async () => {
    view.render(<EmbedCodeView traces={[]} source={null} url={pageAt().url} />);
    await press('embed-code');
    expect($('embed-code-empty')!.textContent).toBe('No run is on screen to embed: run one, open a trace file, or open a ?trace= link first.');
    expect($('embed-code-popover')!.hasAttribute('data-own-keys')).toBe(true);
    act(() => {
      $('embed-code-popover')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    expect($('embed-code-popover')).toBeNull();
    expect(document.activeElement).toBe($('embed-code'));
    await press('embed-code');
    act(() => view.host.querySelector<HTMLButtonElement>('.embed-code-foot button')!.click());
    expect($('embed-code-popover')).toBeNull();
    expect(document.activeElement).toBe($('embed-code'));
  });
});
