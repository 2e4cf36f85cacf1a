// The first screen of a page opened with nothing to show (no ?trace=, not following, no runs put back
// from history) on the default form: the default run's recording from the guided tour (public/tour/,
// step "ping-pong": 10 INCRs, sequential vs one pipeline, every repeat), labelled as recorded — when,
// with what, on which machine — until the page's own run replaces it. Tests and screenshot scripts that
// want the plain empty page set the localStorage switch below to "off".
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { loadTourRecording, type TourRecording } from './tour-recordings.ts';

/** localStorage key; "off" turns the first screen's recording and its run off (e2e/browser.ts sets it). */
export const FIRST_VISIT_STORAGE_KEY = 'pipescope.firstVisit';

/** The tour step whose recording is the default form's run. */
const DEFAULT_RUN_STEP = 'ping-pong';

export interface RecordedFirstRun {
  traces: readonly TraceDocument[];
  recording: TourRecording;
}

/** Whether this browser asked for no first-visit recording or run. */
export function firstVisitOff(): boolean {
  try {
    return window.localStorage.getItem(FIRST_VISIT_STORAGE_KEY) === 'off';
  } catch {
    return false; // storage refused (a sandboxed frame): the first screen as everyone gets it
  }
}

/** The default form's recorded run, verified like any trace; null when it cannot be loaded (the page then shows "Press Run"). */
export async function loadRecordedFirstRun(): Promise<RecordedFirstRun | null> {
  try {
    const { recording, result } = await loadTourRecording(DEFAULT_RUN_STEP);
    return result.docs.length > 0 && result.errors.length === 0 ? { traces: result.docs, recording } : null;
  } catch {
    return null;
  }
}

/** "2026-11-26 13:44 UTC": when the recording's first run started (its trace's run.startedAt). */
export function recordedAtText(traces: readonly TraceDocument[]): string {
  const started = traces.map((d) => d.run.startedAt).sort()[0];
  const at = started ? new Date(started) : null;
  return at && !Number.isNaN(at.getTime()) ? `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'an unknown date';
}
