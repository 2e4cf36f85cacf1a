// The guided tour's recorded fallback: public/tour/index.json names, per step, the recorded traces (or
// sweep) and where they were recorded. When no backend is reachable, a step loads its files through the
// same ?trace= loader as any link (trace-files.ts: each file verified like a live run, plain or .json.gz) and says whose
// recording it shows. The manifest itself is checked with zod; a step missing from it has no fallback.
import { z } from 'zod';
import { fetchText } from '../base/fetch-body.ts';
import { loadTraceUrls, type LoadResult } from './trace-files.ts';

/** Relative to the page, so the recordings load from any sub-path (the static site) as from / (the live app). */
export const TOUR_BASE = 'tour/';

const RecordingSchema = z.object({
  files: z.array(z.string().regex(/^[\w.-]+\.json(\.gz)?$/, 'a file name in public/tour/')).min(1),
  /** The day recorded, YYYY-MM-DD. */
  recordedAt: z.string(),
  redis: z.string(),
  machine: z.string(),
  recordedWith: z.string().optional(),
});
export type TourRecording = z.infer<typeof RecordingSchema>;

export const TourManifestSchema = z.object({ steps: z.record(z.string(), RecordingSchema) });
export type TourManifest = z.infer<typeof TourManifestSchema>;

/** "Recorded on 2026-11-23, Redis 7.0.15, a shared 2-core … — no backend reachable". */
export function provenanceText(r: TourRecording): string {
  return `Recorded on ${r.recordedAt}, Redis ${r.redis}, ${r.machine} — no backend reachable`;
}

export function parseTourManifest(text: string): TourManifest {
  return TourManifestSchema.parse(JSON.parse(text));
}

let manifest: Promise<TourManifest> | null = null;

/** The manifest, fetched once per page. */
export function tourManifest(fetchManifest: (url: string) => Promise<string> = fetchText): Promise<TourManifest> {
  const url = `${TOUR_BASE}index.json`;
  manifest ??= fetchManifest(url).then(parseTourManifest, (error: unknown) => {
    throw new Error(`${url}: ${(error as Error).message}`);
  });
  manifest.catch(() => (manifest = null)); // a failed fetch is tried again next time
  return manifest;
}

/** Loads one step's recorded documents (verified like any ?trace= file). */
export async function loadTourRecording(stepId: string): Promise<{ recording: TourRecording; result: LoadResult }> {
  const recording = (await tourManifest()).steps[stepId];
  if (!recording) throw new Error(`no recording of step “${stepId}” in ${TOUR_BASE}index.json`);
  const result = await loadTraceUrls(recording.files.map((f) => `${TOUR_BASE}${f}`));
  return { recording, result };
}
