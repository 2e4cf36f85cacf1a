// Loads the player's traces through the app's loader (state/trace-files.ts: fetch, then parseDocument,
// the same rules as a live run), in the order the app compares them (sequential first; a bundle's runs in their own order). Never throws:
// what could not be loaded comes back as sentences to show in the player (HTTP 404, invalid trace, a
// depth sweep, which the player does not draw).
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { comparisonOrder, loadTraceUrls } from '../state/trace-files.ts';

export interface PlayerLoad {
  docs: TraceDocument[];
  errors: string[];
  /** The same, with nothing read from a response (LoadResult.publicErrors): what the embed tells its host page. */
  publicErrors: string[];
}

export async function loadPlayerTraces(urls: readonly string[]): Promise<PlayerLoad> {
  if (urls.length === 0) {
    const none = 'No trace to show: give the player a trace URL (src="run.json", or ?trace=run.json on the embed page).';
    return { docs: [], errors: [none], publicErrors: [none] };
  }
  try {
    const result = await loadTraceUrls([...urls]);
    const errors = [...result.errors];
    const publicErrors = [...result.publicErrors];
    if (result.sweeps.length > 0) {
      const sweeps = `${result.sweeps.length === 1 ? 'One file is a depth sweep' : `${result.sweeps.length} files are depth sweeps`}: the player draws run traces only (open sweeps in the Pipescope app).`;
      errors.push(sweeps);
      publicErrors.push('Could not load the traces.');
    }
    return { docs: comparisonOrder(result), errors, publicErrors };
  } catch (error) {
    return { docs: [], errors: [`Could not load the traces: ${(error as Error).message}`], publicErrors: ['Could not load the traces.'] };
  }
}
