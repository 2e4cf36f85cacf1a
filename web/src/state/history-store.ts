// The run history of this browser: every trace shown is saved in IndexedDB (history-db.ts)
// and listed in the History view, kept across reloads within the bounds of model/history-entries.ts.
// It watches the run store rather than being called by it: live traces are saved as they appear on
// screen (a live request's runs form one group), files and ?trace= links are recorded by showLoaded as
// they are opened (each batch one group, labelled with its file name or URL). Saving waits for the page
// to be idle, then writes the JSON in small parts (trace-json-parts.ts), so it never holds up the
// drawing of the run. Saved runs shown again go through showLoaded like a file: parsed and verified,
// a damaged one skipped with a message. The ids on screen are remembered, so a reload puts them back.
// Without IndexedDB the store says why and the app works as before.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import { SnapshotStore } from '../base/snapshot-store.ts';
import { formatBytes, plural } from '../format/number-format.ts';
import type { RunStore } from '../live/run-store.ts';
import type { SweepStore } from '../live/sweep-store.ts';
import type { TraceSource } from '../live/store-types.ts';
import {
  HISTORY_BOUNDS, entrySummary, evictionChoice, readHistoryEntries, type HistoryBounds, type HistoryEntry, type HistorySource,
} from '../model/history-entries.ts';
import type { HistoryDb } from './history-db.ts';
import { parseDocument } from '../../../trace/format/sweep-io.ts';
import { showLoaded } from './show-loaded.ts';
import { jsonParts } from './trace-json-parts.ts';

export interface HistorySnapshot {
  /** opening: the database is being opened and listed; off: no history in this browser (offReason says why). */
  status: 'opening' | 'on' | 'off';
  offReason: string | null;
  /** The saved runs whose summaries read back, in no particular order (model/history-entries.ts historyGroups orders them). */
  entries: readonly HistoryEntry[];
  /** Saved runs whose trace could not be read back, by id: why. */
  unreadable: Readonly<Record<string, string>>;
  /** What the history has to say once (entries skipped on reading, a trace too big to keep), or null. */
  notice: string | null;
}

/** How long after the runs on screen change their ids are written down (one write for a burst of changes), ms. */
const SHOWN_WRITE_DELAY_MS = 300;
/** Main-thread time one stretch of serialising may take before it lets the page run, ms. */
const SLICE_BUDGET_MS = 8;

interface SaveJob {
  doc: TraceDocument;
  source: HistorySource;
  origin: string | null;
  groupId: string;
}

let groupCounter = 0;
const newGroupId = () => `g${Date.now().toString(36)}-${(groupCounter++).toString(36)}`;

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const whenIdle = () =>
  new Promise<void>((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 1000 });
    else setTimeout(resolve, 50);
  });

export class HistoryStore {
  private readonly state: SnapshotStore<HistorySnapshot>;
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => HistorySnapshot;
  private db: HistoryDb | null = null;
  private readonly ready: Promise<void>;
  /** Every database operation runs in turn on this chain, so a Clear never overtakes a save. */
  private chain: Promise<void> = Promise.resolve();
  /** Documents already saved, queued, or shown from the history: not saved again. */
  private readonly handled = new WeakSet<TraceDocument>();
  /** Queued saves by run id (a newer document of the same run replaces a queued one). */
  private readonly queued = new Map<string, SaveJob>();
  private lastTraces: readonly TraceDocument[] = [];
  private lastSource: TraceSource | null = null;
  private liveGroup = newGroupId();
  private toldTooBig = false;
  private shownTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    opened: Promise<HistoryDb | string>,
    private readonly runs: RunStore,
    private readonly sweeps: SweepStore,
    private readonly bounds: HistoryBounds = HISTORY_BOUNDS,
    scheduler: FrameScheduler = frameScheduler,
  ) {
    this.state = new SnapshotStore<HistorySnapshot>({ status: 'opening', offReason: null, entries: [], unreadable: {}, notice: null }, scheduler);
    this.subscribe = this.state.subscribe;
    this.getSnapshot = this.state.getSnapshot;
    this.ready = this.open(opened);
  }

  /** Starts watching the runs on screen; returns the function that stops it. */
  attach(): () => void {
    this.lastTraces = this.runs.getSnapshot().traces;
    this.lastSource = this.runs.getSnapshot().tracesSource;
    const stop = this.runs.subscribe(this.onRuns);
    if (this.lastTraces.length > 0) this.scheduleShownWrite(); // ?trace= documents shown before the first render
    return () => {
      stop();
      if (this.shownTimer) clearTimeout(this.shownTimer);
    };
  }

  /** Saves documents opened from files or links (all of them, drawn or not), as one group; `origins[i]` names docs[i]'s file or URL. */
  record(docs: readonly TraceDocument[], origins: readonly string[], source: 'file' | 'url'): void {
    const groupId = newGroupId();
    docs.forEach((doc, i) => this.enqueue({ doc, source, origin: origins[i] ?? null, groupId }));
  }

  /** Resolves once the database has been opened and listed (or found unavailable). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /** Resolves once every database operation queued so far, and any queued meanwhile, has run (tests wait on it). */
  async settled(): Promise<void> {
    let chain: Promise<void>;
    do {
      chain = this.chain;
      await chain;
    } while (chain !== this.chain);
  }

  /** Shows saved runs in the Runs view, in comparison order; returns false when none could be read. */
  async show(ids: readonly string[], { lead = null, onlyIfEmpty = false }: { lead?: string | null; onlyIfEmpty?: boolean } = {}): Promise<boolean> {
    await this.ready;
    const docs: TraceDocument[] = [];
    const errors: string[] = [];
    const unreadable: Record<string, string> = {};
    for (const id of ids) {
      const read = await this.readTrace(id);
      if ('doc' in read) docs.push(read.doc);
      else {
        unreadable[id] = read.problem;
        errors.push(`Saved run ${id} could not be read and was skipped: ${read.problem}`);
      }
    }
    // Checked again after reading: the user may have started a run meanwhile.
    if (onlyIfEmpty && !this.nothingOnScreen()) return false;
    if (Object.keys(unreadable).length > 0) this.state.update({ unreadable: { ...this.state.getSnapshot().unreadable, ...unreadable } });
    if (docs.length === 0) {
      if (errors.length > 0) this.runs.setMessage({ kind: 'error', text: errors.join(' ') });
      return false;
    }
    for (const doc of docs) this.handled.add(doc);
    showLoaded({ docs, sweeps: [], errors, publicErrors: errors, origins: [] }, 'history', this.runs, this.sweeps);
    if (lead) {
      const message = this.runs.getSnapshot().message;
      this.runs.setMessage({ kind: message?.kind ?? 'info', text: [lead, message?.text].filter(Boolean).join(' ') });
    }
    return true;
  }

  /**
   * After a reload: the runs that were on screen, back on screen, unless something is already shown or
   * running (the URL named traces, or the user pressed Run meanwhile).
   */
  async restore(): Promise<boolean> {
    await this.ready;
    const db = this.db;
    if (!db) return false;
    let shown: unknown;
    try {
      shown = await db.readShown();
    } catch {
      return false;
    }
    const known = new Set(this.state.getSnapshot().entries.map((e) => e.id));
    const ids = Array.isArray(shown) ? shown.filter((id): id is string => typeof id === 'string' && known.has(id)) : [];
    if (ids.length === 0 || !this.nothingOnScreen()) return false;
    const missing = Array.isArray(shown) ? shown.length - ids.length : 0;
    const lead = `Restored from history: the ${plural(ids.length, 'run')} on screen before the reload${missing > 0 ? ` (${missing} no longer saved)` : ''}.`;
    return this.show(ids, { lead, onlyIfEmpty: true });
  }

  remove(ids: readonly string[]): Promise<void> {
    const gone = new Set(ids);
    for (const id of ids) this.queued.delete(id);
    this.state.update({ entries: this.state.getSnapshot().entries.filter((e) => !gone.has(e.id)) });
    return this.queue((db) => db.remove(ids));
  }

  clear(): Promise<void> {
    this.queued.clear();
    this.state.update({ entries: [], unreadable: {}, notice: null });
    return this.queue((db) => db.clear());
  }

  private nothingOnScreen(): boolean {
    const { traces, active } = this.runs.getSnapshot();
    return traces.length === 0 && active === null;
  }

  private async open(opened: Promise<HistoryDb | string>): Promise<void> {
    const db = await opened.catch((error: unknown) => `IndexedDB failed (${(error as Error).message})`);
    if (typeof db === 'string') {
      this.state.update({ status: 'off', offReason: db });
      return;
    }
    try {
      const { entries, skipped, skippedIds } = readHistoryEntries(await db.listEntries());
      this.db = db;
      this.state.update({
        status: 'on',
        entries,
        notice: skipped.length > 0 ? `${plural(skipped.length, 'saved run')} skipped and removed: ${skipped.join('; ')}.` : null,
      });
      if (skippedIds.length > 0) void this.queue((d) => d.remove(skippedIds));
    } catch (error) {
      this.state.update({ status: 'off', offReason: `the history could not be read (${(error as Error).message})` });
    }
  }

  private readonly onRuns = (): void => {
    const { traces, tracesSource } = this.runs.getSnapshot();
    if (traces === this.lastTraces) return;
    const previous = this.lastTraces;
    // A live request grows the array it showed (a run still streaming is replaced by its next, larger
    // document under the same run id); anything else on screen since starts a new group.
    const grows = previous.length > 0 && previous.length <= traces.length && previous.every((d, i) => traces[i]?.run.id === d.run.id);
    if (tracesSource === 'live' && !(grows && this.lastSource === 'live')) this.liveGroup = newGroupId();
    this.lastTraces = traces;
    this.lastSource = tracesSource;
    // A run still streaming is saved once it ends (complete, or cut short and marked incomplete).
    if (tracesSource === 'live') for (const doc of traces) if (doc.incomplete?.reason !== 'in-progress') this.enqueue({ doc, source: 'live', origin: null, groupId: this.liveGroup });
    this.scheduleShownWrite();
  };

  private scheduleShownWrite(): void {
    if (this.shownTimer) clearTimeout(this.shownTimer);
    this.shownTimer = setTimeout(() => {
      this.shownTimer = null;
      const ids = this.runs.getSnapshot().traces.map((d) => d.run.id);
      void this.queue((db) => db.writeShown(ids));
    }, SHOWN_WRITE_DELAY_MS);
  }

  private enqueue(job: SaveJob): void {
    if (this.handled.has(job.doc)) return;
    this.handled.add(job.doc);
    const id = job.doc.run.id;
    const waiting = this.queued.has(id);
    this.queued.set(id, job); // a newer document of a run still waiting replaces it
    if (waiting) return;
    void this.queue(async (db) => {
      await whenIdle();
      const latest = this.queued.get(id);
      if (!latest) return; // removed or cleared meanwhile
      this.queued.delete(id);
      await this.save(db, latest);
    });
  }

  /** Runs one database operation after those before it; a failure is said once in the notice, never thrown. */
  private queue(op: (db: HistoryDb) => Promise<void>): Promise<void> {
    const next = this.chain.then(async () => {
      await this.ready;
      if (!this.db) return;
      try {
        await op(this.db);
      } catch (error) {
        this.state.update({ notice: `The history could not be updated: ${(error as Error).message}` });
      }
    });
    this.chain = next;
    return next;
  }

  private async save(db: HistoryDb, { doc, source, origin, groupId }: SaveJob): Promise<void> {
    const parts = await this.serialize(doc);
    const blob = parts === null ? null : new Blob(parts, { type: 'application/json' });
    const others = this.state.getSnapshot().entries.filter((e) => e.id !== doc.run.id);
    const choice = blob === null ? ({ fits: false } as const) : evictionChoice(others, blob.size, this.bounds);
    if (!choice.fits || blob === null) {
      this.tellTooBig(doc);
      return;
    }
    const entry = entrySummary(doc, { savedAt: Date.now(), groupId, source, origin, bytes: blob.size });
    await db.put(entry, blob, choice.evict);
    // A live run saved is on screen now: say so at once too (not only after the debounce), so a reload right
    // after the run finishes puts this run back, not the one before it.
    if (source === 'live') await db.writeShown(this.runs.getSnapshot().traces.map((d) => d.run.id));
    const evicted = new Set(choice.evict);
    this.state.update({ entries: [...this.state.getSnapshot().entries.filter((e) => e.id !== entry.id && !evicted.has(e.id)), entry] });
  }

  /** The trace's JSON in parts, letting the page run every few ms; null once it is surely over the byte bound. */
  private async serialize(doc: TraceDocument): Promise<string[] | null> {
    const parts: string[] = [];
    let chars = 0;
    let sliceStart = performance.now();
    for (const part of jsonParts(doc)) {
      parts.push(part);
      chars += part.length; // UTF-8 bytes ≥ UTF-16 code units for this text, so over in chars is over in bytes
      if (chars > this.bounds.maxBytes) return null;
      if (performance.now() - sliceStart > SLICE_BUDGET_MS) {
        await yieldToPage();
        sliceStart = performance.now();
      }
    }
    return parts;
  }

  private tellTooBig(doc: TraceDocument): void {
    if (this.toldTooBig) return;
    this.toldTooBig = true;
    const text = `Run ${doc.run.id} is too big for the history (at most ${formatBytes(this.bounds.maxBytes)} of trace JSON); it is shown but not saved.`;
    this.state.update({ notice: text });
    const message = this.runs.getSnapshot().message;
    this.runs.setMessage({ kind: message?.kind ?? 'info', text: [message?.text, text].filter(Boolean).join(' ') });
  }

  private async readTrace(id: string): Promise<{ doc: TraceDocument } | { problem: string }> {
    if (!this.db) return { problem: 'the history is off' };
    try {
      const stored = await this.db.readTrace(id);
      if (stored === undefined) return { problem: 'its trace is missing from the history' };
      const parsed = parseDocument(typeof stored === 'string' ? stored : await stored.text());
      if (parsed.kind !== 'trace') return { problem: 'it is not a trace' };
      return { doc: parsed.doc };
    } catch (error) {
      return { problem: (error as Error).message };
    }
  }
}
