// The run history's storage: one IndexedDB database in this browser, used through the raw API.
// Three object stores: `entries` (the small summaries of model/history-entries.ts, listed without
// reading any trace), `traces` (each run's trace JSON as a Blob, under the same id) and `meta` (the ids
// of the runs on screen, for a reload). Nothing here interprets what it stores: the history store
// validates every summary and parses every trace read back, as it would a file.
// When IndexedDB is missing or refuses to open (private windows, blocked storage), openHistoryDb says
// why instead, and the app runs without a history.

const DB_NAME = 'pipescope-history';
const DB_VERSION = 1;
const ENTRIES = 'entries';
const TRACES = 'traces';
const META = 'meta';
const SHOWN_KEY = 'shown';

/** The operations the history store needs; state/history-store.ts is written against this, so tests can pass a Map-backed one. */
export interface HistoryDb {
  /** Every stored summary, as stored (unvalidated). */
  listEntries(): Promise<unknown[]>;
  /** A run's trace JSON, or undefined when there is none. */
  readTrace(id: string): Promise<Blob | string | undefined>;
  /** In one transaction: deletes `evict` (summaries and traces), then stores a summary and its trace. */
  put(entry: { id: string }, trace: Blob, evict: readonly string[]): Promise<void>;
  remove(ids: readonly string[]): Promise<void>;
  clear(): Promise<void>;
  readShown(): Promise<unknown>;
  writeShown(ids: readonly string[]): Promise<void>;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

class IndexedHistoryDb implements HistoryDb {
  constructor(private readonly db: IDBDatabase) {}

  listEntries(): Promise<unknown[]> {
    return request(this.db.transaction(ENTRIES, 'readonly').objectStore(ENTRIES).getAll());
  }

  readTrace(id: string): Promise<Blob | string | undefined> {
    return request(this.db.transaction(TRACES, 'readonly').objectStore(TRACES).get(id) as IDBRequest<Blob | string | undefined>);
  }

  put(entry: { id: string }, trace: Blob, evict: readonly string[]): Promise<void> {
    const tx = this.db.transaction([ENTRIES, TRACES], 'readwrite');
    const finished = done(tx);
    for (const id of evict) {
      tx.objectStore(ENTRIES).delete(id);
      tx.objectStore(TRACES).delete(id);
    }
    tx.objectStore(TRACES).put(trace, entry.id);
    tx.objectStore(ENTRIES).put(entry);
    return finished;
  }

  remove(ids: readonly string[]): Promise<void> {
    const tx = this.db.transaction([ENTRIES, TRACES], 'readwrite');
    const finished = done(tx);
    for (const id of ids) {
      tx.objectStore(ENTRIES).delete(id);
      tx.objectStore(TRACES).delete(id);
    }
    return finished;
  }

  clear(): Promise<void> {
    const tx = this.db.transaction([ENTRIES, TRACES, META], 'readwrite');
    const finished = done(tx);
    for (const name of [ENTRIES, TRACES, META]) tx.objectStore(name).clear();
    return finished;
  }

  readShown(): Promise<unknown> {
    return request(this.db.transaction(META, 'readonly').objectStore(META).get(SHOWN_KEY));
  }

  writeShown(ids: readonly string[]): Promise<void> {
    const tx = this.db.transaction(META, 'readwrite');
    const finished = done(tx);
    tx.objectStore(META).put([...ids], SHOWN_KEY);
    return finished;
  }
}

/** Opens (creating on first use) the history database; resolves with the reason when it cannot. */
export function openHistoryDb(factory: IDBFactory | undefined = globalThis.indexedDB): Promise<HistoryDb | string> {
  if (!factory) return Promise.resolve('this browser offers no IndexedDB');
  return new Promise((resolve) => {
    let req: IDBOpenDBRequest;
    try {
      req = factory.open(DB_NAME, DB_VERSION);
    } catch (error) {
      resolve(`IndexedDB refused to open (${(error as Error).message})`);
      return;
    }
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(ENTRIES)) db.createObjectStore(ENTRIES, { keyPath: 'id' });
      if (!db.objectStoreNames.contains(TRACES)) db.createObjectStore(TRACES);
      if (!db.objectStoreNames.contains(META)) db.createObjectStore(META);
    };
    req.onsuccess = () => {
      const db = req.result;
      // Another tab opening a newer version asks this one to let go.
      db.onversionchange = () => db.close();
      resolve(new IndexedHistoryDb(db));
    };
    req.onerror = () => resolve(`IndexedDB refused to open (${req.error?.message ?? 'unknown error'})`);
    req.onblocked = () => resolve('IndexedDB is blocked by another tab of this app');
  });
}
