// Trace and sweep files are input from anyone (?trace= links, files people send each other). Hostile
// ones — markup and script in every string field, 1e308 and other absurd numbers, deep nesting — are
// either refused with a readable message or drawn with their strings as text: the page never gains an
// element, an attribute or a script from a file's content, and never hangs or throws.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serializeTrace } from '../../../../trace/format/trace-io.ts';
import { serializeSweep } from '../../../../trace/format/sweep-io.ts';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { LiveChannel } from '../../live/live-channel.ts';
import type { SocketLike } from '../../live/live-client.ts';
import { RunStore } from '../../live/run-store.ts';
import { SweepStore } from '../../live/sweep-store.ts';
import { showLoaded } from '../../state/show-loaded.ts';
import { HistoryStore } from '../../state/history-store.ts';
import { openHistoryDb } from '../../state/history-db.ts';
import { loadTraceFiles } from '../../state/trace-files.ts';
import { sequentialTrace } from '../../test-support/trace-fixtures.ts';
// A real recording with MONITOR and strace (every kind of string a trace holds: heads, syscalls, MONITOR lines).
import recordedServerTrace from '../../../../e2e/fixtures/incr-10-sequential-server-trace.json?raw';
import { sweepDocument } from '../../test-support/sweep-fixtures.ts';
import { MemoryLocation } from '../../test-support/memory-location.ts';
import { PageUrl } from '../../url/page-url.ts';
import { AppView } from './app-view.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const SCRIPT = '<script>window.__pwned = 1</script>';
const IMG = '<img src=x onerror="window.__pwned = 2">';
const PAYLOADS = [SCRIPT, IMG, '"><svg onload="window.__pwned = 3">', 'javascript:window.__pwned = 4', '{{constructor.constructor("return 1")()}}'];

/** A socket that never opens: the page runs without a backend, as an embed does. */
const silentSocket = (): SocketLike => ({ readyState: 0, onopen: null, onclose: null, onerror: null, onmessage: null, send: () => {}, close: () => {} });

/** Every string leaf of the JSON, by path (the format marker left out: without it a file is no Pipescope file). */
function stringPaths(json: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof json === 'string') return path[0] === 'format' ? [] : [path];
  if (Array.isArray(json)) return json.flatMap((item, i) => stringPaths(item, [...path, i]));
  if (json && typeof json === 'object') return Object.entries(json).flatMap(([k, v]) => stringPaths(v, [...path, k]));
  return [];
}

/** A copy of the JSON with the string at `path` replaced. */
function replaced(json: unknown, path: (string | number)[], value: string): unknown {
  const copy = JSON.parse(JSON.stringify(json)) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path.at(-1)!] = value;
  return copy;
}

describe('hostile files', () => {
  let host: HTMLDivElement;
  let root: Root;
  let store: RunStore;
  let sweepStore: SweepStore;

  beforeEach(() => {
    delete (window as { __pwned?: number }).__pwned;
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    const channel = new LiveChannel(frameScheduler, silentSocket);
    store = new RunStore(channel);
    sweepStore = new SweepStore(channel);
    // jsdom has no IndexedDB: the history is off, as in a browser that blocks it.
    const history = new HistoryStore(openHistoryDb(), store, sweepStore);
    act(() => root.render(<AppView channel={channel} store={store} sweepStore={sweepStore} history={history} url={new PageUrl(new MemoryLocation())} urlLoad={null} />));
    ownEmbeds = embeds();
  });

  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  /** Opens the texts as files, as the Open trace button does, and draws what was accepted. */
  async function open(...texts: string[]): Promise<{ accepted: number; errors: string[] }> {
    const result = await loadTraceFiles(texts.map((text, i) => new File([text], `hostile-${i}.json`)));
    act(() => void showLoaded(result, 'file', store, sweepStore));
    act(() => frameScheduler.flush());
    act(() => frameScheduler.flush());
    return { accepted: result.docs.length + result.sweeps.length, errors: result.errors };
  }

  /** The page's own images and such, before any file is opened: a file may add none. */
  let ownEmbeds = 0;
  const embeds = () => host.querySelectorAll('script, img, iframe, object, embed, link, meta, base').length;

  const expectNothingInjected = () => {
    expect(embeds()).toBe(ownEmbeds);
    for (const element of host.querySelectorAll('*')) {
      for (const attribute of element.getAttributeNames()) {
        expect(attribute.startsWith('on'), `${element.tagName} ${attribute}`).toBe(false);
        const value = element.getAttribute(attribute) ?? '';
        expect(value).not.toMatch(/^\s*javascript:/i);
        // Text may land in a title, a label, an id (prefixed: wire-<run id>-…) or data-*, as text; never in a URL or style.
        if (['href', 'src', 'xlink:href', 'style', 'action', 'formaction'].includes(attribute)) expect(value, `${element.tagName} ${attribute}`).not.toContain('pwned');
      }
    }
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  };

  it('markup and script in any string field of a trace, one field at a time: refused, or drawn as text', async () => {
    const doc = JSON.parse(recordedServerTrace) as unknown;
    expect((await open(recordedServerTrace)).accepted).toBe(1);
    // One path of each shape (writes.*.head, serverTrace.others.*.command, …): every kind of string field.
    const shapes = new Map(stringPaths(doc).map((path) => [path.map((key) => (typeof key === 'number' ? '*' : key)).join('.'), path]));
    const paths = [...shapes.values()];
    expect(paths.length).toBeGreaterThan(15);
    let accepted = 0;
    for (let i = 0; i < paths.length; i += 4) {
      const batch = paths.slice(i, i + 4).map((path, j) => JSON.stringify(replaced(doc, path, PAYLOADS[(i + j) % PAYLOADS.length]!)));
      const opened = await open(...batch);
      accepted += opened.accepted;
      for (const error of opened.errors) expect(error).toMatch(/^hostile-\d\.json: (Invalid trace|Unsupported trace|Not a trace): .{10,}/);
      expectNothingInjected();
    }
    // Free-text fields (replies, heads, addresses, versions, MONITOR lines…) take any text and are drawn.
    console.log(`hostile trace fields: ${paths.length} kinds of string field, ${accepted} drawn as text, ${paths.length - accepted} refused`);
    expect(accepted).toBeGreaterThan(5);
  }, 30_000);

  it('markup in a trace\'s replies and addresses (fields the schema takes as any text) shows as text', async () => {
    const doc = JSON.parse(serializeTrace(sequentialTrace(3, 100, 20, 'SET'))) as { commands: { reply: string }[]; redis: { address: string; version: string }; recorder: { client: string } };
    doc.commands.forEach((c, i) => (c.reply = PAYLOADS[i]!));
    doc.redis.address = IMG;
    doc.redis.version = SCRIPT;
    doc.recorder.client = SCRIPT;
    const { accepted, errors } = await open(JSON.stringify(doc));
    expect(errors).toEqual([]);
    expect(accepted).toBe(1);
    expectNothingInjected();
    expect(host.textContent).toContain(IMG);
  });

  it('markup in a sweep file\'s strings is drawn as text', async () => {
    const sweep = JSON.parse(serializeSweep(sweepDocument([1, 2, 4], 1000))) as { reference: { version: string; args: string[] } | null; redis: { address: string }; referenceMissing?: string };
    sweep.reference!.version = SCRIPT;
    sweep.reference!.args = [IMG, SCRIPT];
    sweep.redis.address = IMG;
    const { accepted, errors } = await open(JSON.stringify(sweep));
    expect([accepted, errors]).toEqual([1, []]);
    expectNothingInjected();
  });

  it.each([
    ['a time of 1e308', (doc: Record<string, unknown>) => ((doc['commands'] as { sentUs: number }[])[1]!.sentUs = 1e308)],
    ['a duration of 1e308', (doc: Record<string, unknown>) => ((doc['totals'] as { durationUs: number }).durationUs = 1e308)],
    ['n of 1e308', (doc: Record<string, unknown>) => ((doc['run'] as { n: number }).n = 1e308)],
    ['a negative byte count', (doc: Record<string, unknown>) => ((doc['writes'] as { bytes: number }[])[0]!.bytes = -1e308)],
    ['an RTT of 1e308', (doc: Record<string, unknown>) => ((doc['rtt'] as { measuredMedianUs: number }).measuredMedianUs = 1e308)],
  ])('%s is refused with a message, or drawn without hanging', async (_what, mutate) => {
    const doc = JSON.parse(serializeTrace(sequentialTrace(3))) as Record<string, unknown>;
    mutate(doc);
    const started = performance.now();
    const { accepted, errors } = await open(JSON.stringify(doc));
    expect(performance.now() - started).toBeLessThan(2000);
    if (!accepted) expect(errors[0]).toMatch(/^hostile-0\.json: Invalid trace: .{10,}/);
    else expect(errors).toEqual([]);
    expectNothingInjected();
  });

  it('1e308 ops/s in a sweep is refused or drawn without hanging', async () => {
    const sweep = JSON.parse(serializeSweep(sweepDocument([1, 2, 4], 1000))) as { points: { runs: { totals: { opsPerSec: number } }[] }[] };
    sweep.points[1]!.runs[0]!.totals.opsPerSec = 1e308;
    const started = performance.now();
    await open(JSON.stringify(sweep));
    expect(performance.now() - started).toBeLessThan(2000);
    expectNothingInjected();
  });

  it('deep nesting (100,000 levels) anywhere is refused with a message naming the limit, before JSON.parse', async () => {
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const base = serializeTrace(sequentialTrace(2));
    const texts = [
      deep(100_000),
      base.replace('"reply":1', `"reply":${deep(100_000)}`),
      base.replace('"recorder":{', `"extra":${deep(100_000)},"recorder":{`),
      `{"format":"pipescope-sweep","version":1,"sweep":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`,
    ];
    const { accepted, errors } = await open(...texts);
    // Even in a field the schema would drop: nothing more than 64 deep is parsed (trace/format/decode-budget.ts).
    expect(accepted).toBe(0);
    expect(errors).toEqual(texts.map((_, i) => `hostile-${i}.json: the file nests arrays and objects more than 64 deep; a trace nests under 10.`));
    expectNothingInjected();
  });
});
