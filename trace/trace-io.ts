// Import and export of trace documents. Import checks the shape with the schema, then replays the
// document's socket events through the TraceBuilder, so a file is held to exactly the rules a live
// run is, and a hand-edited time that contradicts its write or read is caught.
import { z } from 'zod';
import { TraceBuilder, TraceError, type Outcome } from './trace-builder.ts';
import { FORMAT_VERSION, TRACE_FORMAT, TraceDocumentSchema, type TraceDocument } from './trace-format.ts';

export function serializeTrace(doc: TraceDocument): string {
  return JSON.stringify(doc);
}

/** Parses and verifies a trace; throws TraceError with a message a person can act on. */
export function parseTrace(text: string): TraceDocument {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TraceError(`Not a trace: the file is not valid JSON (${(error as Error).message}).`);
  }
  return verifyTrace(json);
}

export function verifyTrace(json: unknown): TraceDocument {
  if (typeof json !== 'object' || json === null || (json as { format?: unknown }).format !== TRACE_FORMAT) {
    throw new TraceError(`Not a trace: expected "format": "${TRACE_FORMAT}".`);
  }
  const version = (json as { version?: unknown }).version;
  if (version !== FORMAT_VERSION) {
    throw new TraceError(`Unsupported trace version ${JSON.stringify(version)}; this Pipescope reads version ${FORMAT_VERSION}.`);
  }
  const parsed = TraceDocumentSchema.safeParse(json);
  if (!parsed.success) throw new TraceError(`Invalid trace: ${describeIssues(parsed.error)}`);
  const doc = parsed.data;
  const rebuilt = replay(doc);
  for (const [position, command] of doc.commands.entries()) {
    // The rebuilt command at each position always has index === position, so compare against that.
    const derived = rebuilt.commands[position];
    if (command.index !== position || derived === undefined) {
      throw new TraceError(`Invalid trace: commands must be listed in order; found index ${command.index} at position ${position}.`);
    }
    if (command.sentUs !== derived.sentUs || command.repliedUs !== derived.repliedUs
      || command.toServerUs !== derived.toServerUs || command.fromServerUs !== derived.fromServerUs
      || command.serverUs !== derived.serverUs) {
      throw new TraceError(`Invalid trace: command ${command.index}'s times do not match the writes and reads that carried it.`);
    }
  }
  // Everything else derived from the events must agree too; a file is not allowed to claim otherwise.
  for (const key of ['writes', 'reads', 'proxy', 'serverTrace', 'counts', 'totals'] as const) {
    if (JSON.stringify(doc[key]) !== JSON.stringify(rebuilt[key])) {
      throw new TraceError(`Invalid trace: "${key}" does not match what its socket events add up to.`);
    }
  }
  return rebuilt;
}

function replay(doc: TraceDocument): TraceDocument {
  if (doc.commands.length !== doc.run.n) {
    throw new TraceError(`Invalid trace: run.n is ${doc.run.n} but ${doc.commands.length} commands are listed.`);
  }
  const builder = new TraceBuilder(doc);
  const outcomes: Outcome[] = doc.commands.map((c) => ('error' in c ? { error: c.error } : { reply: c.reply }));
  builder.addBatch({
    writes: doc.writes,
    reads: doc.reads,
    outcomes,
    ...(doc.proxy ? { toServer: doc.proxy.toServer, fromServer: doc.proxy.fromServer } : {}),
  });
  const serverUs = doc.commands.map((c) => c.serverUs);
  const serverSide = doc.serverTrace
    ? { trace: doc.serverTrace, serverUs: serverUs.every((t) => t !== undefined) ? (serverUs as number[]) : [] }
    : null;
  return builder.finish(doc.counts.server, serverSide, doc.memory);
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(document)'}: ${issue.message}`)
    .join('; ');
}
