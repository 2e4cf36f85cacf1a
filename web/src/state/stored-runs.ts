// Opening a link that names runs the backend keeps (url/stored-link.ts `stored=`; the backend's side is
// server/app/live/recent-runs.ts): each id is fetched from stored-runs/<id> (relative, like every URL the
// app uses) and decoded by the same worker, within the same budget, as ?trace= links and opened files
// (trace-decoder.ts), then shown in the link's order as stored runs. An id the backend no longer keeps (a
// 404: pushed out by newer runs, or the backend restarted) is said plainly, and the page falls back to
// the link's form. The static site has no backend: it keeps nothing, and says so.
import { STORED_RUNS_PATH, STORED_LINK_LIFETIME, MAX_STORED_RUNS } from '../../../trace/protocol/stored-runs.ts';
import { tracesOf } from '../../../trace/format/sweep-io.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { HttpError, fetchBytes } from '../base/fetch-body.ts';
import type { FileBody } from '../base/gzip-text.ts';
import { decodeDocument } from './trace-decoder.ts';
import type { LoadResult } from './trace-files.ts';
import type { RunStore } from '../live/run-store.ts';
import type { SweepStore } from '../live/sweep-store.ts';
import type { ViewChoice } from './page-choices.ts';
import { showLoaded } from './show-loaded.ts';

/** What a link's stored ids gave: the runs, in the link's order, as a LoadResult; and how many were gone. */
export interface StoredLoad {
  result: LoadResult;
  /** run id → stored id, for the runs loaded: the page's next link names them again. */
  stored: Map<string, string>;
  /** Ids the backend no longer keeps (404). */
  gone: number;
}

/** The URL of a kept run, relative to the page. */
export const storedRunUrl = (id: string): string => `${STORED_RUNS_PATH}${id}`;

/** Loads the runs a link names; never throws (failures are in result.errors, ids gone counted). */
export async function loadStoredRuns(ids: readonly string[], fetchBody: (url: string) => Promise<FileBody> = fetchBytes): Promise<StoredLoad> {
  type Loaded = { id: string; docs: TraceDocument[] } | { id: string; gone: true } | { id: string; error: string };
  const loaded = await Promise.all(ids.map(async (id): Promise<Loaded> => {
    try {
      return { id, docs: tracesOf(await decodeDocument(await fetchBody(storedRunUrl(id)))) };
    } catch (error) {
      if (error instanceof HttpError && /^HTTP 404\b/.test(error.message)) return { id, gone: true };
      return { id, error: `Could not load a run this link names (${storedRunUrl(id)}): ${(error as Error).message}` };
    }
  }));
  const docs: TraceDocument[] = [];
  const origins: string[] = [];
  const stored = new Map<string, string>();
  const errors: string[] = [];
  let gone = 0;
  for (const item of loaded) {
    if ('gone' in item) gone++;
    else if ('error' in item) errors.push(item.error);
    else {
      for (const doc of item.docs) {
        docs.push(doc);
        origins.push(storedRunUrl(item.id));
        stored.set(doc.run.id, item.id);
      }
    }
  }
  return { result: { docs, origins, sweeps: [], errors, publicErrors: errors, inOrder: true, storedIds: stored }, stored, gone };
}

/** What the page says when some or all of a link's runs are gone. */
export function goneText(gone: number, named: number): string {
  const which = gone === named
    ? (named === 1 ? 'The run this link names is' : `The ${named} runs this link names are`)
    : `${gone} of the ${named} runs this link names are`;
  return `${which} no longer kept by the Pipescope that measured ${named === 1 ? 'it' : 'them'}: it keeps its last ${MAX_STORED_RUNS} runs while it runs, ` +
    `and forgets them when it stops or restarts. ${gone === named ? 'The form holds the link\'s settings: press Run to measure them again.' : 'The others are shown.'} ` +
    'For a copy that lasts, the sender can use Export → Trace (JSON).';
}

/** The static site's answer to such a link: there is no backend here to keep runs. */
export const STATIC_STORED_TEXT =
  'This link names runs kept by a running Pipescope, which this static site cannot reach: it has no backend and keeps no runs. ' +
  'Open the link on the Pipescope that measured them, or ask for an exported trace (Export → Trace (JSON)) and open it here.';

/** The tag's title beside runs opened from such a link. */
export const STORED_TAG_TITLE = STORED_LINK_LIFETIME;

/** The stored ids of the runs on screen, in their order (those the backend keeps; others have none). */
export function storedIdsOnScreen({ traces, stored }: { traces: readonly TraceDocument[]; stored: ReadonlyMap<string, string> }): string[] {
  return traces.flatMap((d) => {
    const id = stored.get(d.run.id);
    return id === undefined ? [] : [id];
  });
}

/**
 * Opens a link's stored runs: says they are loading, shows those still kept (as stored runs, in the link's
 * order), and says plainly which are gone. `record` hears the runs shown (the run history keeps them).
 * Resolves with the view to switch to, like showLoaded.
 */
export async function showStoredLink(
  ids: readonly string[],
  runs: RunStore,
  sweeps: SweepStore,
  record?: (docs: readonly TraceDocument[], origins: readonly string[]) => void,
  fetchBody?: (url: string) => Promise<FileBody>,
): Promise<ViewChoice | null> {
  runs.setMessage({ kind: 'info', text: `Loading ${ids.length === 1 ? 'the run' : `the ${ids.length} runs`} this link names…` });
  const { result, gone } = await loadStoredRuns(ids, fetchBody);
  const shown = result.docs.length > 0 || result.errors.length > 0;
  const view = shown ? showLoaded(result, 'stored', runs, sweeps, record) : null;
  if (gone > 0) {
    const message = shown ? runs.getSnapshot().message : null;
    runs.setMessage({ kind: result.docs.length > 0 ? 'info' : 'error', text: [goneText(gone, ids.length), message?.text].filter(Boolean).join(' ') });
  } else if (result.docs.length === 0 && result.errors.length === 0) runs.setMessage(null);
  return view;
}
