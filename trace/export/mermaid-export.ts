// A run as a Mermaid `sequenceDiagram`, for docs that render Mermaid (GitHub, GitLab, MkDocs) and
// cannot embed the player: participants Client and Redis, one message per socket write and per received
// chunk as measured (run-flow.ts), each with its bytes, what it carried and its time since t0 at the
// client socket; a MONITOR-traced run adds Redis's executions as notes. Above MERMAID_MAX_EVENTS events
// the middle is left out, with a note counting exactly what (so a 100,000-command run stays readable).
// Text is escaped for Mermaid's grammar (`#` and `;` end a message; `<`, `>` would be read as HTML). Pure.
// A cluster run has one participant per node (masters in slot order, then replicas), each message
// drawn between the client and the node its socket went to; a single Redis's export is as it was.
import type { TraceDocument } from '../format/trace-format.ts';
import { MODE_BADGES, formatUs, plural, preciseUs, runTitleText } from './export-words.ts';
import { FLOW_EXEC_SOURCE, FLOW_TIME_SOURCE, collapseFlow, flowEvents, gapLines, type FlowEvent, type FlowMessage } from './run-flow.ts';
import { roundTripsWaited } from '../derive/round-trips.ts';
import { oneLine } from './export-escape.ts';

/** Events (messages and execution notes) drawn in full; a run with more is collapsed. */
export const MERMAID_MAX_EVENTS = 20;
/** Events kept at each end of a collapsed run. */
export const MERMAID_KEEP = 6;

/**
 * Text made safe inside a Mermaid message, note, title or `%%` comment: `#` and `;` (which end a message) and
 * `<`, `>`, `%` (so no `%%{init…}%%` directive) become Mermaid's numeric entities (#35;), line breaks and other
 * control characters are written visibly (export-escape.ts oneLine), so no field starts a line of its own.
 */
export function mermaidText(text: string): string {
  return oneLine(text).replace(/[#;<>%]/g, (c) => `#${c.charCodeAt(0)};`);
}

/** Lines of a note, each escaped, joined by Mermaid's line break. */
function noteLines(texts: readonly string[]): string {
  return texts.map(mermaidText).join('<br/>');
}

/** The client library's name without its parenthesised detail, as the diagram's lane head shows it. */
export function clientName(doc: TraceDocument): string {
  return doc.recorder.client.replace(/\s*\(.*\)$/, '');
}

/** The run's name: "Pipeline · 10 × INCR". */
export function runName(doc: TraceDocument): string {
  return `${MODE_BADGES[doc.run.mode]} · ${runTitleText(doc.run)}`;
}

/** Which participant a message crossed to: R on a single Redis; on a cluster, its socket's node (N1, N2 …). */
type ParticipantOf = (e: FlowEvent) => string;
const SINGLE: ParticipantOf = () => 'R';

/** A write as a solid arrow to Redis, a read as a dashed one back: what it carried, its bytes and time. */
function message(e: FlowMessage, to: ParticipantOf): string {
  const text = mermaidText(`${e.kind} ${e.number} · ${e.bytes} B · ${e.summary} · at ${preciseUs(e.atUs)}`);
  return e.kind === 'write' ? `    C->>${to(e)}: ${text}` : `    ${to(e)}-->>C: ${text}`;
}

function line(e: FlowEvent, uncertaintyUs: number, to: ParticipantOf = SINGLE): string {
  if (e.kind !== 'exec') return message(e, to);
  const span = e.toUs > e.atUs ? `${preciseUs(e.atUs)} to ${preciseUs(e.toUs)}` : preciseUs(e.atUs);
  return `    Note right of ${to(e)}: ${noteLines([e.summary, `at ${span} (${FLOW_EXEC_SOURCE}, ± ${formatUs(uncertaintyUs)})`])}`;
}

interface Participants {
  /** The participant lines after the client's. */
  lines: string[];
  /** The last participant's name, where notes across the diagram end. */
  last: string;
  of: ParticipantOf;
}

/** Redis, or on a cluster run one participant per node: masters in slot order (N1 …), then replicas. */
function participants(doc: TraceDocument): Participants {
  const cluster = doc.cluster;
  if (!cluster) return { lines: [`    participant R as ${mermaidText(`Redis ${doc.redis.version}`)}`], last: 'R', of: SINGLE };
  const first = (slots: readonly (readonly [number, number])[]) => (slots.length ? Math.min(...slots.map((r) => r[0])) : Infinity);
  const masters = cluster.topology.nodes.filter((n) => n.role === 'master').sort((a, b) => first(a.slots) - first(b.slots));
  const nodes = [...masters, ...cluster.topology.nodes.filter((n) => n.role !== 'master')];
  const names = new Map(nodes.map((node, i) => [node.id, `N${i + 1}`]));
  const slotCount = (slots: readonly (readonly [number, number])[]) => slots.reduce((sum, [a, b]) => sum + b - a + 1, 0);
  const lines = nodes.map((node) => {
    const role = node.role === 'master'
      ? `master, ${slotCount(node.slots).toLocaleString('en-US')} slots`
      : `replica${node.masterId && names.has(node.masterId) ? ` of ${names.get(node.masterId)}` : ''}`;
    return `    participant ${names.get(node.id)} as ${mermaidText(`Redis ${doc.redis.version} · ${node.address} (${role})`)}`;
  });
  // An exec note sits with the write it belongs to: the node of that write's socket.
  const socketOfCommand = (i: number) => doc.commands[i]?.connection;
  const of: ParticipantOf = (e) => {
    const socket = e.kind === 'exec' ? socketOfCommand(e.first) : e.connection;
    const node = socket === undefined ? undefined : cluster.connections[socket]?.node;
    return (node !== undefined && names.get(node)) || 'N1';
  };
  return { lines, last: `N${nodes.length}`, of };
}

/** The Mermaid source of the run's sequence diagram (ends with a newline). */
export function mermaidSequence(doc: TraceDocument): string {
  const uncertaintyUs = doc.serverTrace?.clock.uncertaintyUs ?? 0;
  const { head, gap, tail } = collapseFlow(flowEvents(doc), MERMAID_MAX_EVENTS, MERMAID_KEEP);
  const { client } = doc.counts;
  const redis = participants(doc);
  const partial = doc.incomplete ? ` · incomplete (${doc.incomplete.reason}): ${doc.incomplete.replied} of ${doc.run.n} replies measured` : '';
  const lines = [
    `%% ${mermaidText(`Pipescope run ${doc.run.id}, started ${doc.run.startedAt}, recorded by ${doc.recorder.tool} ${doc.recorder.version} (${doc.recorder.client}, ${doc.recorder.runtime}) against Redis ${doc.redis.version}.`)}`,
    `%% Messages are the client socket's writes and received chunks (${FLOW_TIME_SOURCE}), times since t0, the run's first command.`,
    'sequenceDiagram',
    `    title ${mermaidText(`${runName(doc)}${partial}`)}`,
    `    participant C as ${mermaidText(`Client · ${clientName(doc)}`)}`,
    ...redis.lines,
    ...head.map((e) => line(e, uncertaintyUs, redis.of)),
    ...(gap ? [`    Note over C,${redis.last}: ${noteLines(['…', ...gapLines(gap), '…'])}`] : []),
    ...tail.map((e) => line(e, uncertaintyUs, redis.of)),
    `    Note over C,${redis.last}: ${noteLines([
      `${preciseUs(doc.totals.durationUs)} t0 to last reply (${FLOW_TIME_SOURCE})`,
      `${plural(client.writes, 'write')}, ${plural(client.reads, 'read')}, ${plural(roundTripsWaited(doc), 'round trip')}`,
    ])}`,
  ];
  return `${lines.join('\n')}\n`;
}
