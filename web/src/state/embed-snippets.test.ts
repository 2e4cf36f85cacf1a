import { describe, expect, it } from 'vitest';
import { repeatsOf } from '../test-support/repeat-fixtures.ts';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { attr, embedSnippets, embedTitle, queryValue, type EmbedPage } from './embed-snippets.ts';

const seq = sequentialTrace(3);
const pipe = pipelineTrace(3);

/** The snippet as a browser reads it: its elements, attributes decoded. */
function parsed(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = html;
  return host;
}

const page = (over: Partial<EmbedPage>): EmbedPage => ({
  href: 'https://docs.example/pipescope/', traces: [seq, pipe], source: 'live', theme: 'auto', t: null, speed: null, ...over,
});

describe('embedSnippets', () => {
  it('links traces opened by ?trace= by their absolute URLs, with the theme, the playhead and the speed', () => {
    const href = 'https://docs.example/pipescope/?trace=traces/seq.json&trace=/other/a%20b.json&trace=https://cdn.example/p.json.gz#t=1500&speed=0.01';
    const s = embedSnippets(page({ href, source: 'url', theme: 'dark', t: 1500.25, speed: 0.01 }))!;
    const iframe = parsed(s.iframe).querySelector('iframe')!;
    const src = new URL(iframe.getAttribute('src')!);
    expect(src.origin + src.pathname).toBe('https://docs.example/pipescope/embed/');
    expect(src.searchParams.getAll('trace')).toEqual([
      'https://docs.example/pipescope/traces/seq.json', 'https://docs.example/other/a%20b.json', 'https://cdn.example/p.json.gz',
    ]);
    expect(Object.fromEntries([...src.searchParams].filter(([k]) => k !== 'trace'))).toEqual({ theme: 'dark', t: '1500.25', speed: '0.01' });
    expect(s.iframe).toContain('src="https://docs.example/pipescope/embed/?trace=https://docs.example/pipescope/traces/seq.json&amp;trace=');
    expect(iframe.getAttribute('title')).toBe('Pipescope: Sequential vs one pipeline · 3 × INCR');
    expect(Object.fromEntries(['width', 'height', 'style', 'loading', 'allow'].map((a) => [a, iframe.getAttribute(a)]))).toEqual({
      width: '100%', height: '720', style: 'border:0', loading: 'lazy', allow: 'fullscreen',
    });
    expect(s.toExport).toEqual([]);

    const host = parsed(s.element);
    expect(host.querySelector('script')!.getAttribute('src')).toBe('https://docs.example/pipescope/pipescope-player.js');
    const player = host.querySelector('pipescope-player')!;
    expect(player.getAttribute('src')!.split(/\s+/)).toEqual(src.searchParams.getAll('trace'));
    expect([player.getAttribute('theme'), player.getAttribute('t'), player.getAttribute('speed')]).toEqual(['dark', '1500.25', '0.01']);
  });

  it('names the export file of a run that has no URL (live, or opened from a file), one per run, and leaves out t and speed when unset', () => {
    // Three repeats of one run: the median one (300 µs, repeat 0) is the panel's, and the file named.
    const s = embedSnippets(page({ traces: [...repeatsOf(seq, [300, 200, 400]), pipe], source: 'file' }))!;
    expect(s.toExport).toEqual(['pipescope-sequential-incr-3-test-sequential-3-r0.json', 'pipescope-pipeline-incr-3-test-pipeline-3.json']);
    const src = new URL(parsed(s.iframe).querySelector('iframe')!.getAttribute('src')!);
    expect([...src.searchParams]).toEqual([...s.toExport.map((f) => ['trace', f]), ['theme', 'auto']]);
    expect(parsed(s.element).querySelector('pipescope-player')!.getAttribute('src')).toBe(s.toExport.join(' '));
    expect(s.embedPage).toBe('https://docs.example/pipescope/embed/');
  });

  it('escapes URLs for the query and the attribute: &, quotes and angle brackets survive as data', () => {
    const evil = 'https://x.example/t.json?a=1&b="<script>"\'';
    const s = embedSnippets(page({ href: `https://docs.example/?trace=${encodeURIComponent(evil)}`, source: 'url' }))!;
    expect(s.iframe).not.toMatch(/<script>"/);
    const src = new URL(parsed(s.iframe).querySelector('iframe')!.getAttribute('src')!);
    expect(src.searchParams.getAll('trace')).toEqual([new URL(evil).href]);
    expect(parsed(s.element).querySelector('pipescope-player')!.getAttribute('src')).toBe(new URL(evil).href);
    expect(parsed(s.element).querySelectorAll('script')).toHaveLength(1);
    expect(queryValue('a b&c=d/e:f')).toBe('a%20b%26c%3Dd/e:f');
    expect(attr(`"'<>&`)).toBe('&quot;&#39;&lt;&gt;&amp;');
  });

  it('is null with no run on screen', () => {
    expect(embedSnippets(page({ traces: [] }))).toBeNull();
  });

  it("sizes the iframe from the embed's height messages of its own origin only (protocol v1)", () => {
    const s = embedSnippets(page({ href: `${location.origin}/app/` }))!;
    const host = parsed(s.iframe);
    document.body.append(host);
    try {
      const frame = host.querySelector('iframe')!;
      new Function(host.querySelector('script')!.textContent!)();
      const send = (data: unknown, origin = location.origin, source: Window | null = frame.contentWindow) =>
        window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
      send({ source: 'pipescope', version: 1, type: 'height', height: 612.4 });
      expect(frame.style.height).toBe('613px');
      send({ source: 'pipescope', version: 1, type: 'height', height: 9000 }, 'https://evil.example');
      send({ source: 'pipescope', version: 2, type: 'height', height: 9000 });
      send({ source: 'pipescope', version: 1, type: 'height', height: 9000 }, location.origin, window);
      expect(frame.style.height).toBe('613px');
    } finally {
      host.remove();
    }
  });
});

describe('embedTitle', () => {
  it('says the modes once for one workload, each run when they differ', () => {
    expect(embedTitle([seq])).toBe('Sequential · 3 × INCR');
    expect(embedTitle([seq, sequentialTrace(5)])).toBe('Sequential · 3 × INCR vs Sequential · 5 × INCR');
  });
});
