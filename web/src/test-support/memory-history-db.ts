// For history tests in jsdom (which has no IndexedDB): the HistoryDb interface of state/history-db.ts
// over plain Maps, with the stored values open to the test, so it can plant a damaged entry or trace.
import type { HistoryDb } from '../state/history-db.ts';

export interface MemoryHistoryDb extends HistoryDb {
  entries: Map<string, unknown>;
  traces: Map<string, Blob | string>;
  shown: unknown;
}

export function memoryHistoryDb(): MemoryHistoryDb {
  const db: MemoryHistoryDb = {
    entries: new Map(),
    traces: new Map(),
    shown: undefined,
    listEntries: () => Promise.resolve([...db.entries.values()]),
    readTrace: (id) => Promise.resolve(db.traces.get(id)),
    put: (entry, trace, evict) => {
      for (const id of evict) {
        db.entries.delete(id);
        db.traces.delete(id);
      }
      db.entries.set(entry.id, structuredClone(entry));
      db.traces.set(entry.id, trace);
      return Promise.resolve();
    },
    remove: (ids) => {
      for (const id of ids) {
        db.entries.delete(id);
        db.traces.delete(id);
      }
      return Promise.resolve();
    },
    clear: () => {
      db.entries.clear();
      db.traces.clear();
      db.shown = undefined;
      return Promise.resolve();
    },
    readShown: () => Promise.resolve(db.shown),
    writeShown: (ids) => {
      db.shown = [...ids];
      return Promise.resolve();
    },
  };
  return db;
}
