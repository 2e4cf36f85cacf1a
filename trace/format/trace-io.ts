// Import and export of trace documents. Import checks the shape with the schema, then replays the
// document's socket events through the TraceBuilder, so a file is held to exactly the rules a live
// run is, and a hand-edited time that contradicts its write or read is caught.
import { z } from 'zod';
import { TraceBuilder, TraceError } from './trace-builder.ts';
import { FORMAT_VERSION, TRACE_FORMAT, TraceDocumentSchema, type TraceDocument } from './trace-format.ts';
import { plainElements } from './plain-elements.ts';
import { migrateVersion1, migrateVersion2, migrateVersion3 } from './trace-migration.ts';
import { wireCommandCount } from './wire-layout.ts';

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
  if (version !== FORMAT_VERSION && version !== 1 && version !== 2 && version !== 3) {
    throw new TraceError(`Unsupported trace version ${JSON.stringify(version)}; this Pipescope reads versions 1 to ${FORMAT_VERSION}.`);
  }
  const raw = json as Record<string, unknown>;
  const doc = checkShape(migrated(version, raw));
  const rebuilt = replay(doc);
  // Everything else derived from the events must agree too; a file is not allowed to claim otherwise.
  for (const key of ['writes', 'reads', 'proxy', 'serverTrace', 'counts', 'totals', 'incomplete'] as const) {
    if (JSON.stringify(doc[key]) !== JSON.stringify(rebuilt[key])) {
      throw new TraceError(`Invalid trace: "${key}" does not match what its socket events add up to.`);
    }
  }
  return rebuilt;
}

/** An older version's document as the current version (trace-migration.ts), one step at a time. */
function migrated(version: 1 | 2 | 3 | typeof FORMAT_VERSION, raw: Record<string, unknown>): Record<string, unknown> {
  const v2 = version === 1 ? migrateVersion1(raw) : raw;
  const v3 = version <= 2 ? migrateVersion2(v2) : v2;
  return version <= 3 ? migrateVersion3(v3) : v3;
}

/** The document as the schema reads it; its big arrays taken as they are when plainly valid (plain-elements.ts). */
function checkShape(json: Record<string, unknown>): TraceDocument {
  const plain = plainElements(json);
  if (plain) {
    const rest = TraceDocumentSchema.safeParse({ ...json, commands: [], writes: [], reads: [] });
    if (rest.success) return { ...rest.data, ...(plain as Pick<TraceDocument, 'commands' | 'writes' | 'reads'>) };
  }
  const parsed = TraceDocumentSchema.safeParse(json);
  if (!parsed.success) throw new TraceError(`Invalid trace: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * Replays the document's socket events through the TraceBuilder, then holds each listed command to
 * what those events derive (index, times); the listed records, so checked, are the document's.
 */
function replay(doc: TraceDocument): TraceDocument {
  if (doc.incomplete ? doc.commands.length > doc.run.n : doc.commands.length !== doc.run.n) {
    throw new TraceError(`Invalid trace: run.n is ${doc.run.n} but ${doc.commands.length} commands are listed.`);
  }
  const wire = wireCommandCount(doc.run);
  if (wire !== doc.run.n) {
    throw new TraceError(`Invalid trace: a ${doc.run.mode} run of ${doc.run.operations} ${doc.run.command} puts ${wire} commands on the wire, not run.n = ${doc.run.n}.`);
  }
  const builder = new TraceBuilder(doc);
  // A command record is an outcome too: it carries its reply or error.
  builder.addBatch({
    writes: doc.writes,
    reads: doc.reads,
    outcomes: doc.commands,
    ...(doc.proxy ? { toServer: doc.proxy.toServer, fromServer: doc.proxy.fromServer } : {}),
  });
  const serverUs = doc.commands.map((c) => c.serverUs);
  // Without MONITOR a server trace has no execution times; with it, a command without one is one
  // Redis never executed (v3: rejected while queueing, or discarded by EXECABORT).
  const executions = !doc.run.probes.monitor ? null : serverUs.map((t) => t ?? null);
  const serverSide = doc.serverTrace ? { trace: doc.serverTrace, serverUs: executions } : null;
  const closing = {
    serverSide, memory: doc.memory, doneUs: doc.totals.doneUs, kernelTcp: doc.kernelTcp, adoptCommands: doc.commands,
    keysAfter: doc.keysAfter, neighbor: doc.neighbor, heldConnection: doc.heldConnection,
    serverCpu: doc.serverCpu ?? null, probeCosts: doc.probeCosts ?? null, cluster: doc.cluster ?? null,
  };
  // v4: an incomplete trace lists the commands whose replies arrived; its mark is derived anew and compared.
  const rebuilt = doc.incomplete
    ? builder.partial(doc.incomplete, closing)
    : builder.finish(doc.counts.server, closing);
  if (doc.incomplete && rebuilt.commands.length !== doc.commands.length) {
    throw new TraceError(`Invalid trace: ${doc.commands.length} commands are listed, but replies arrived for ${rebuilt.commands.length}.`);
  }
  // Each read's first reply is derived too (on a cluster run, per socket): a file that says otherwise is not what its events say.
  for (const [i, read] of doc.reads.entries()) {
    const derived = rebuilt.reads[i]!.firstReply;
    if (read.firstReply !== derived) throw new TraceError(`Invalid trace: read ${i} names reply ${read.firstReply} as its first, but its socket's next reply was ${derived}.`);
  }
  const { sentUs, repliedUs, toServerUs, fromServerUs } = builder.times;
  for (const [position, command] of doc.commands.entries()) {
    if (command.index !== position) {
      throw new TraceError(`Invalid trace: commands must be listed in order; found index ${command.index} at position ${position}.`);
    }
    if (command.sentUs !== sentUs[position] || command.repliedUs !== repliedUs[position]
      || command.toServerUs !== toServerUs?.[position] || command.fromServerUs !== fromServerUs?.[position]
      || (command.serverUs ?? null) !== (serverSide?.serverUs?.[position] ?? null)) {
      throw new TraceError(`Invalid trace: command ${command.index}'s times do not match the writes and reads that carried it.`);
    }
  }
  return rebuilt;
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(document)'}: ${issue.message}`)
    .join('; ');
}
