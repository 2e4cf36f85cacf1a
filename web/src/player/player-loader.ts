// Loads the player's traces through the app's loader (state/trace-files.ts: fetch, then parseDocument,
// the same rules as a live run), in the order the app compares them (sequential first). Never throws:
// what could not be loaded comes back as sentences to show in the player (HTTP 404, invalid trace, a
// depth sweep, which the player does not draw).
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { loadTraceUrls, orderForComparison } from '../state/trace-files.ts';

export interface PlayerLoad {
  docs: TraceDocument[];
  errors: string[];
}

export async function loadPlayerTraces(urls: readonly string[]): Promise<PlayerLoad> {
  if (urls.length === 0) return { docs: [], errors: ['No trace to show: give the player a trace URL (src="run.json", or ?trace=run.json on the embed page).'] };
  try {
    const result = await loadTraceUrls([...urls]);
    const errors = [...result.errors];
    if (result.sweeps.length > 0) errors.push(`${result.sweeps.length === 1 ? 'One file is a depth sweep' : `${result.sweeps.length} files are depth sweeps`}: the player draws run traces only (open sweeps in the Pipescope app).`);
    return { docs: orderForComparison(result.docs), errors };
  } catch (error) {
    return { docs: [], errors: [`Could not load the traces: ${(error as Error).message}`] };
  }
}
