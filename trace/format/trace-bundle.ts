// A compare in one file: the runs on screen, each a whole trace document, in the order they were shown.
// The trace document describes one run and stays so; a bundle only holds several of them, so every
// reader that opens a trace opens a bundle's runs by the same rules (each one verified as a file of its
// own: trace-io.ts verifyTrace, older versions migrated). The app's Export → Trace (JSON) writes one when
// more than one run is on screen; Open trace…, ?trace= links, the embeds and the CLI read it back as the
// same compare, in the same order. A bundle may also be written in the compact form (compact-trace.ts),
// which decodes to it byte for byte.
import { z } from 'zod';
import { TraceError } from './trace-builder.ts';
import { MAX_REPEATS } from './run-request.ts';
import type { TraceDocument } from './trace-format.ts';
import { describeIssues, verifyTrace } from './trace-io.ts';

export const BUNDLE_FORMAT = 'pipescope-traces';
export const BUNDLE_FORMAT_VERSION = 1;
/** Runs one bundle may hold: every repeat of the six runs a page compares at once (trace/protocol/page-limits.ts MAX_TRACE_FILES). */
export const MAX_BUNDLE_TRACES = 6 * MAX_REPEATS;

export const TraceBundleSchema = z.object({
  format: z.literal(BUNDLE_FORMAT).describe('What the file is: several runs shown together.'),
  version: z.literal(BUNDLE_FORMAT_VERSION).describe('The bundle\'s own version (each run carries its trace version).'),
  traces: z.array(z.unknown())
    .min(1)
    .max(MAX_BUNDLE_TRACES)
    .describe(
      `The runs, in the order they were shown (a run's repeats included), at most ${MAX_BUNDLE_TRACES}. Each is a whole trace document ` +
        '(see [The trace document](#the-trace-document); any version a trace file may have), checked as if it were a file of its own.',
    ),
}).describe(
  'Several runs in one file: a compare as it was on screen (Export → Trace (JSON) with more than one run shown). ' +
    'Opened with Open trace…, a ?trace= link, an embed or the CLI, it shows the same runs in the same order.',
);
export type TraceBundle = { format: typeof BUNDLE_FORMAT; version: typeof BUNDLE_FORMAT_VERSION; traces: TraceDocument[] };

/** True when the parsed JSON says it is a bundle (of any version). */
export function isTraceBundle(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { format?: unknown }).format === BUNDLE_FORMAT;
}

/** The bundle of `docs`, in their order. */
export function traceBundle(docs: readonly TraceDocument[]): TraceBundle {
  if (docs.length === 0 || docs.length > MAX_BUNDLE_TRACES) throw new TraceError(`A bundle holds 1 to ${MAX_BUNDLE_TRACES} runs, not ${docs.length}.`);
  return { format: BUNDLE_FORMAT, version: BUNDLE_FORMAT_VERSION, traces: [...docs] };
}

export function serializeBundle(docs: readonly TraceDocument[]): string {
  return JSON.stringify(traceBundle(docs));
}

/** The bundle's runs, each verified as a trace file is; throws TraceError naming the run that fails. */
export function verifyBundle(json: unknown): TraceDocument[] {
  const version = (json as { version?: unknown }).version;
  if (version !== BUNDLE_FORMAT_VERSION) {
    throw new TraceError(`Unsupported bundle version ${JSON.stringify(version)}; this Pipescope reads version ${BUNDLE_FORMAT_VERSION}.`);
  }
  const parsed = TraceBundleSchema.safeParse(json);
  if (!parsed.success) throw new TraceError(`Invalid bundle: ${describeIssues(parsed.error)}`);
  const { traces } = parsed.data;
  return traces.map((trace, i) => {
    try {
      return verifyTrace(trace);
    } catch (error) {
      throw new TraceError(`Run ${i + 1} of ${traces.length} in the bundle: ${(error as Error).message}`);
    }
  });
}
