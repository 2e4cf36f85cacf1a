// A run as plain text in fixed-width columns, like Wireshark's Flow Graph, for docs, issues and
// terminals: a header naming the run and where its figures come from; one row per socket write
// (Client → Redis) and received chunk (Redis → Client) as measured (run-flow.ts) with its time since t0,
// bytes and what it carried; MONITOR-traced runs add Redis's executions in the Redis column; a footer
// with the totals (round trips, writes, reads, bytes; Redis's INFO counts; strace's syscalls). Above
// FLOW_MAX_EVENTS rows the middle is left out, counted exactly. Control characters in any field are written
// visibly (export-escape.ts). Pure; ends with a newline.
import type { TraceDocument } from '../format/trace-format.ts';
import { exactUs, formatCount, formatUs, plural } from './export-words.ts';
import { clientName, runName } from './mermaid-export.ts';
import { FLOW_EXEC_SOURCE, FLOW_TIME_SOURCE, collapseFlow, flowEvents, gapText, type FlowEvent } from './run-flow.ts';
import { roundTripsWaited } from '../derive/round-trips.ts';
import { oneLine } from './export-escape.ts';

/** Rows printed in full; a run with more is collapsed to its first and last FLOW_KEEP. */
export const FLOW_MAX_EVENTS = 200;
export const FLOW_KEEP = 50;

/** Width of the arrow column between the Client and Redis lifelines, in characters. */
const LANE = 24;
const NO_WIDTH = 6;
const TIME_WIDTH = 14;
const BYTES_WIDTH = 9;

function arrow(e: FlowEvent): string {
  if (e.kind === 'exec') return `|${' '.repeat(LANE - 1)}◆|`;
  const label = ` ${e.kind} ${e.number} `;
  const dashes = LANE - 1 - label.length;
  const left = Math.floor(dashes / 2);
  return e.kind === 'write'
    ? `|${'-'.repeat(left)}${label}${'-'.repeat(dashes - left)}>|`
    : `|<${'-'.repeat(left)}${label}${'-'.repeat(dashes - left)}|`;
}

function row(e: FlowEvent, uncertaintyUs: number): string {
  const no = e.kind === 'exec' ? '' : String(e.kind === 'write' ? `w${e.number}` : `r${e.number}`);
  const bytes = e.kind === 'exec' ? '' : formatCount(e.bytes);
  const what = e.kind === 'exec'
    ? `Redis ${e.summary}${e.toUs > e.atUs ? ` until ${exactUs(e.toUs)}` : ''} (${FLOW_EXEC_SOURCE}, ± ${formatUs(uncertaintyUs)})`
    : e.summary;
  return `${no.padStart(NO_WIDTH)}  ${exactUs(e.atUs).padStart(TIME_WIDTH)}  ${arrow(e)}  ${bytes.padStart(BYTES_WIDTH)}  ${what}`.trimEnd();
}

/** The run's text flow. */
export function textFlow(doc: TraceDocument): string {
  const uncertaintyUs = doc.serverTrace?.clock.uncertaintyUs ?? 0;
  const { head, gap, tail } = collapseFlow(flowEvents(doc), FLOW_MAX_EVENTS, FLOW_KEEP);
  const { client, server } = doc.counts;
  const lanes = `${'Client'.padEnd(LANE - 4)}Redis`;
  const lines = [
    `Pipescope flow: ${runName(doc)}${doc.incomplete ? ` (incomplete, ${doc.incomplete.reason}: ${doc.incomplete.replied} of ${doc.run.n} replies measured)` : ''}`,
    `Run ${doc.run.id}, started ${doc.run.startedAt}; client ${clientName(doc)} on ${doc.recorder.runtime}; Redis ${doc.redis.version}` +
      `${doc.rtt.addedMs > 0 || doc.rtt.jitterMs > 0 ? `; added delay ${doc.rtt.addedMs} ms RTT ± ${doc.rtt.jitterMs} ms (proxy)` : ''}.`,
    `Rows: the client socket's writes (w) and received chunks (r), ${FLOW_TIME_SOURCE}; time since t0 (the run's first command); bytes as written or read.`,
    ...(doc.run.probes.monitor && doc.serverTrace ? [`◆ rows: Redis executing the commands a write carried (${FLOW_EXEC_SOURCE}, on the client's clock ± ${formatUs(uncertaintyUs)}).`] : []),
    '',
    `${'No.'.padStart(NO_WIDTH)}  ${'Time since t0'.padStart(TIME_WIDTH)}  ${lanes.padEnd(LANE + 1)}  ${'Bytes'.padStart(BYTES_WIDTH)}  Carried`,
    ...head.map((e) => row(e, uncertaintyUs)),
    ...(gap ? [`${''.padStart(NO_WIDTH)}  ${'…'.padStart(TIME_WIDTH)}  ${`|${' '.repeat(LANE - 1)}|`}  ${''.padStart(BYTES_WIDTH)}  ${gapText(gap)}`] : []),
    ...tail.map((e) => row(e, uncertaintyUs)),
    '',
    `Totals (${FLOW_TIME_SOURCE}): ${plural(roundTripsWaited(doc), 'round trip')}; ${plural(client.writes, 'write')}, ${formatCount(client.bytesOut)} B out; ` +
      `${plural(client.reads, 'read')}, ${formatCount(client.bytesIn)} B in; ${plural(doc.commands.length, 'command')} replied; ` +
      `${exactUs(doc.totals.durationUs)} t0 to last reply.`,
  ];
  if (!doc.incomplete?.omitted.includes('redis-info')) {
    lines.push(`Redis (${server.source}${server.exclusive ? '' : ', shared with other clients'}): ${plural(server.reads, 'read event')}, ` +
      `${plural(server.writes, 'write event')}, ${exactUs(server.execUs)} executing.`);
  }
  const syscalls = doc.serverTrace?.syscalls;
  if (syscalls) {
    const byCall = new Map<string, number>();
    for (const c of syscalls.calls) byCall.set(c.call, (byCall.get(c.call) ?? 0) + 1);
    const counted = [...byCall].map(([call, n]) => `${formatCount(n)} ${call}`).join(', ');
    lines.push(`Redis syscalls on the run's socket (${syscalls.source}): ${counted || 'none'}.`);
  }
  // Every field on its own line's terms: a line break or control character in a reply or a name is written
  // visibly, so it can neither forge a row nor drive a terminal.
  return `${lines.map(oneLine).join('\n')}\n`;
}
