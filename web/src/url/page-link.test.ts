// The whole link: every setting a link carries comes back from it (each run-form field and each sweep-form
// field changed on its own, all at once, beside the display keys), in one canonical order whatever the
// order typed; a view's keys replace another view's, the display keys stay; a navigation changes only the
// form of the view it shows.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SWEEP_FORM } from '../state/sweep-form-state.ts';
import { DEFAULT_DISPLAY_LINK } from './display-link.ts';
import { formatLink, parseLink, patchedLink, type PageLink } from './page-link.ts';
import { DEFAULT_RUN_LINK, type RunLink } from './run-link.ts';
import { DEFAULT_SWEEP_LINK, type SweepLink } from './sweep-link.ts';

const RUN_CHANGES: Partial<RunLink>[] = [
  { command: 'SET' }, { n: 12345 }, { valueBytes: 4096 }, { mode: 'pipeline-vs-chunked', chunk: 100 }, { mode: 'eval' }, { chunk: 7 }, { scale: 'own' },
  { rttMs: 2.5 }, { jitterMs: 0.5 }, { monitor: true }, { strace: true }, { cold: true }, { repeats: 1 }, { engine: 'raw' },
  { mode: 'custom', modes: ['pipeline', 'multi', 'evalsha'] }, { mode: 'chunked', chunkPauseMs: 12.5 }, { errorAt: 0 }, { errorAt: 3, errorKind: 'queueing' },
  { neighborRate: 200, neighborCommand: 'GET' }, { heldConnection: true }, { memory: true },
];

const SWEEP_CHANGES: Partial<SweepLink['form']>[] = [
  { command: 'SET', valueBytes: '512' }, { maxDepth: 4096 }, { depthsMode: 'list', depthList: '1, 3, 9, 27' }, { perPoint: '777' }, { repeats: '4' },
  { engine: 'raw' }, { rttMs: '1.5' }, { reference: false },
];

/** The display keys in the link's order, as a link writes them. */
const DISPLAY = '&t=15&speed=0.01&zoom=10-20&theme=dark&present=1&tour=3&repeat=2%3A1&wire=2';
const display = parseLink(`#x=1${DISPLAY}`).display;
const link = (patch: Partial<PageLink>): PageLink => ({ view: 'run', run: DEFAULT_RUN_LINK, sweep: DEFAULT_SWEEP_LINK, display, ...patch });

describe('links round-trip every setting', () => {
  it('each run-form field, alone and all together, beside the display keys', () => {
    const all = Object.assign({}, DEFAULT_RUN_LINK, ...RUN_CHANGES.filter((c) => c.mode === undefined || c.mode === 'custom')) as RunLink;
    for (const change of [...RUN_CHANGES, all]) {
      const run = { ...DEFAULT_RUN_LINK, ...change };
      const hash = formatLink(link({ run }));
      expect(hash.endsWith(DISPLAY), hash).toBe(true);
      const read = parseLink(hash);
      expect(read.run, JSON.stringify(change)).toEqual(run);
      expect(read.view).toBe('run');
      expect(read.display).toEqual(display);
      expect(read.display).toMatchObject({ zoom: { fromUs: 10, toUs: 20 }, t: 15, speed: 0.01, wire: 1 });
    }
  });

  it('each sweep-form field, alone and all together, beside the display keys', () => {
    const all = Object.assign({}, DEFAULT_SWEEP_FORM, ...SWEEP_CHANGES) as SweepLink['form'];
    for (const change of [...SWEEP_CHANGES, all]) {
      for (const yScale of ['log', 'linear'] as const) {
        const sweep: SweepLink = { form: { ...DEFAULT_SWEEP_FORM, ...change }, yScale };
        const hash = formatLink(link({ view: 'sweep', sweep }));
        expect(hash.startsWith('#view=sweep&command=')).toBe(true);
        const read = parseLink(hash);
        expect(read.sweep, JSON.stringify(change)).toEqual(sweep);
        expect(read.view).toBe('sweep');
        expect(read.display.t).toBe(15);
      }
    }
  });

  it('the gallery and the history: their view, and the display keys', () => {
    expect(formatLink(link({ view: 'gallery' }))).toBe(`#view=gallery${DISPLAY}`);
    expect(formatLink(link({ view: 'history' }))).toBe(`#view=history${DISPLAY}`);
    expect(parseLink(`#view=gallery${DISPLAY}`)).toMatchObject({ view: 'gallery', display });
  });
});

describe('the one canonical order', () => {
  it("writes the view's keys first, then the display keys in theirs, whatever order a link had", () => {
    const typed = parseLink('#wire=2&theme=dark&zoom=0-10&t=120&n=5&command=PING');
    expect(formatLink(typed)).toBe('#command=PING&n=5&valueBytes=16&mode=both&scale=shared&t=120&zoom=0-10&theme=dark&wire=2');
    expect(formatLink(parseLink(formatLink(typed)))).toBe(formatLink(typed));
  });

  it("drops another view's keys, unknown keys and junk values", () => {
    expect(formatLink(parseLink('#view=sweep&maxDepth=64&n=5&zoom=0-10&foo=bar'))).toBe(
      '#view=sweep&command=PING&maxDepth=64&perPoint=10000&repeats=6&reference=1&zoom=0-10',
    );
    expect(formatLink(parseLink('#view=gallery&command=INCR&t=abc&present=yes&theme=sepia'))).toBe('#view=gallery');
  });

  it('lets a patch set some display keys and remove others, keeping the rest', () => {
    const before = parseLink('#command=PING&t=5');
    const after = patchedLink(before, { display: { t: 7, theme: 'dark' } });
    expect(formatLink(after)).toBe('#command=PING&n=10&valueBytes=16&mode=both&scale=shared&t=7&theme=dark');
    expect(formatLink(patchedLink(after, { display: { t: null } }))).toBe('#command=PING&n=10&valueBytes=16&mode=both&scale=shared&theme=dark');
  });

  it('never throws on a hash it cannot read', () => {
    for (const hash of ['#%E0%A4%A', '#&&&==&', '#__proto__=1&constructor=2', '#view[]=x']) {
      expect(parseLink(hash)).toEqual({ view: 'run', run: DEFAULT_RUN_LINK, sweep: DEFAULT_SWEEP_LINK, display: DEFAULT_DISPLAY_LINK });
    }
  });
});

describe('opening a page, and navigating', () => {
  it('opening: the run form reads its keys whatever the view, the sweep its own only under view=sweep', () => {
    expect(parseLink('#view=gallery&command=GET').run.command).toBe('GET');
    expect(parseLink('#command=GET&perPoint=500').sweep).toEqual(DEFAULT_SWEEP_LINK);
  });

  it("navigating: a form changes only when the link shows its view; the other keeps what it had", () => {
    const before = parseLink('#view=sweep&command=SET&valueBytes=64');
    const toRun = parseLink('#command=GET&n=5', before);
    expect(toRun).toMatchObject({ view: 'run', run: { command: 'GET', n: 5 }, sweep: before.sweep });
    const toGallery = parseLink('#view=gallery&command=PING', toRun);
    expect(toGallery.run).toBe(toRun.run);
    expect(toGallery.sweep).toBe(before.sweep);
  });

  it('carries the stored ids of the runs on screen with the run form, in order, each once, junk dropped', () => {
    const a = 'a'.repeat(21) + '-';
    const b = 'B'.repeat(21) + '_';
    const read = parseLink(`#command=GET&n=5&stored=${a}.nope.${b}.${a}&t=3`);
    expect(read.stored).toEqual([a, b]);
    const formOnly = formatLink(patchedLink(read, { stored: [] }));
    expect(formOnly).toMatch(/^#command=GET&n=5&.*&t=3$/);
    const withIds = formOnly.replace('&t=3', `&stored=${a}.${b}&t=3`);
    expect(formatLink(read)).toBe(withIds);
    // Written only under the run view; kept meanwhile, and back with it.
    const gallery = patchedLink(read, { view: 'gallery' });
    expect(formatLink(gallery)).toBe('#view=gallery&t=3');
    expect(formatLink(patchedLink(gallery, { view: 'run' }))).toBe(withIds);
    expect(parseLink('#stored=').stored).toBeUndefined();
  });
});
