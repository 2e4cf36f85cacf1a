// The link's `stored=` key: the ids of the runs on screen that the backend keeps for links
// (trace/protocol/stored-runs.ts), in the order shown, joined by "." (a character no id holds and that a
// URL carries as it is). Written with the run form's keys, so that a link after a run opens that run,
// not an empty form. Tolerant like every key (link-fields.ts): anything but an id is dropped, an id
// named twice counts once, at most MAX_TRACE_FILES are read; nothing throws.
import { isStoredId } from '../../../trace/protocol/stored-runs.ts';
import { MAX_TRACE_FILES } from '../../../trace/protocol/page-limits.ts';

export const STORED_KEY = 'stored';

/** The ids a `stored=` value names, in order. */
export function parseStoredLink(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...new Set(text.split('.').map((id) => id.trim()).filter(isStoredId))].slice(0, MAX_TRACE_FILES);
}

/** The key and its value, or nothing when no id is named. */
export function storedLinkEntries(ids: readonly string[]): [string, string][] {
  const named = parseStoredLink(ids.join('.'));
  return named.length > 0 ? [[STORED_KEY, named.join('.')]] : [];
}
