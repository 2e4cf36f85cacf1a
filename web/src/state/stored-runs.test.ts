// Opening a link's stored runs: each id's bytes (the compact, gzipped form the backend serves) go through
// the page's decoder and come out in the link's order, named by their ids; an id the backend no longer
// keeps (404) is counted, said plainly, and the others shown; nothing at all: the form, and why.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeCompactTrace } from '../../../trace/format/compact-trace.ts';
import { parseTrace } from '../../../trace/format/trace-io.ts';
import { HttpError } from '../base/fetch-body.ts';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import { RunStore } from '../live/run-store.ts';
import { SweepStore } from '../live/sweep-store.ts';
import type { ChannelPort } from '../live/live-channel.ts';
import { goneText, loadStoredRuns, showStoredLink, storedIdsOnScreen, storedRunUrl } from './stored-runs.ts';

const fixture = (name: string) => parseTrace(readFileSync(`e2e/fixtures/${name}`, 'utf8'));
const PIPELINE = fixture('incr-10-pipeline.json');
const SEQUENTIAL = fixture('incr-10-sequential.json');
const ids = ['P'.repeat(22), 'S'.repeat(22), 'G'.repeat(22)];
/** The backend as the page fetches it: the pipeline and the sequential run kept, the third id gone. */
const served = new Map([[storedRunUrl(ids[0]!), PIPELINE], [storedRunUrl(ids[1]!), SEQUENTIAL]]);
const fetchBody = (url: string) => {
  const doc = served.get(url);
  return doc ? Promise.resolve(new Uint8Array(gzipSync(encodeCompactTrace(doc)))) : Promise.reject(new HttpError('HTTP 404 Not Found'));
};

function stores() {
  const channel: ChannelPort = { isOpen: false, send: () => false, listen: () => () => {} };
  const scheduler = new FrameScheduler((cb) => (cb(), 0), () => {});
  return { runs: new RunStore(channel, scheduler), sweeps: new SweepStore(channel, scheduler) };
}

describe('a link to stored runs', () => {
  it('loads the runs still kept, in the link\'s order (pipeline first here), named by their ids', async () => {
    const { result, stored, gone } = await loadStoredRuns(ids, fetchBody);
    expect(result.docs.map((d) => d.run.id)).toEqual([PIPELINE.run.id, SEQUENTIAL.run.id]);
    expect(result).toMatchObject({ inOrder: true, errors: [] });
    expect([...stored]).toEqual([[PIPELINE.run.id, ids[0]], [SEQUENTIAL.run.id, ids[1]]]);
    expect(gone).toBe(1);
  });

  it('shows them as stored runs, says which are gone, and the next link names them again', async () => {
    const { runs, sweeps } = stores();
    const recorded: string[] = [];
    expect(await showStoredLink(ids, runs, sweeps, (docs) => recorded.push(...docs.map((d) => d.run.id)), fetchBody)).toBe('run');
    const snap = runs.getSnapshot();
    expect(snap.tracesSource).toBe('stored');
    expect(snap.traces.map((d) => d.run.id)).toEqual([PIPELINE.run.id, SEQUENTIAL.run.id]);
    expect(storedIdsOnScreen(snap)).toEqual(ids.slice(0, 2));
    expect(snap.message).toEqual({ kind: 'info', text: goneText(1, 3) });
    expect(snap.message!.text).toMatch(/^1 of the 3 runs this link names are no longer kept by the Pipescope that measured them: it keeps its last 240 runs/);
    expect(recorded).toEqual([PIPELINE.run.id, SEQUENTIAL.run.id]);
  });

  it('with every run gone, keeps the form and says so, as an alert', async () => {
    const { runs, sweeps } = stores();
    expect(await showStoredLink([ids[2]!], runs, sweeps, undefined, fetchBody)).toBeNull();
    expect(runs.getSnapshot().traces).toEqual([]);
    expect(runs.getSnapshot().message).toEqual({
      kind: 'error',
      text: 'The run this link names is no longer kept by the Pipescope that measured it: it keeps its last 240 runs while it runs, and forgets them when it ' +
        'stops or restarts. The form holds the link\'s settings: press Run to measure them again. For a copy that lasts, the sender can use Export → Trace (JSON).',
    });
  });

  it('says what else went wrong with a run, naming its URL', async () => {
    const { result } = await loadStoredRuns([ids[0]!], () => Promise.resolve(new TextEncoder().encode('<html>')));
    expect(result.errors).toEqual([`Could not load a run this link names (stored-runs/${ids[0]}): Not a Pipescope file: the file is not valid JSON.`]);
  });
});
