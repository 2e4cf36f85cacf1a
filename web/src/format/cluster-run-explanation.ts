// The plain-words line under a cluster run's diagram, from measurement: how many round trips the run
// waited through one after another (its critical path: trace/derive/cluster-round-trips.ts) and why —
// each node's share at once on its own socket (the nodes overlap: the slowest node's, the max), one node
// after another (the sum), one command at a time, or every command on one node (keys under one hash tag,
// or a transaction or one MSET, which cannot be split) — with each node's own count and time, and what a
// node refused (CROSSSLOT, MOVED, EXECABORT) in its own words. Never a canned sentence. Pure.
import { clusterRoundTrips, type NodeRoundTrips } from '../../../trace/derive/cluster-round-trips.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { formatCount, formatUs, plural } from './number-format.ts';

/** The explanation of a cluster run; null for a run against a single Redis. */
export function clusterRunExplanation(doc: TraceDocument): string | null {
  const trips = clusterRoundTrips(doc);
  if (!trips) return null;
  const cluster = doc.cluster!;
  const address = (node: NodeRoundTrips) => cluster.connections[node.connection]!.address;
  const used = trips.perNode.filter((node) => node.commands > 0);
  const sockets = new Set(doc.writes.map((write) => write.connection)).size;
  const carried = `${plural(doc.commands.length, 'command')} in ${plural(doc.writes.length, 'write')} on ${plural(sockets, 'socket')}, replies in ${plural(doc.reads.length, 'read')}`;
  const each = used.map((node) => `${address(node)} ${formatCount(node.roundTrips)} in ${formatUs(node.spanUs)}`).join(', ');
  const path = `${plural(trips.criticalPath, 'round trip')} on the critical path`;
  let why: string;
  switch (trips.shape) {
    case 'parallel': {
      const slowest = used.reduce((a, b) => (b.spanUs > a.spanUs ? b : a));
      why = `every node's share was written at once, each on its own socket, so the nodes' round trips overlapped: the run waited for the slowest node, ${address(slowest)} (the max over the nodes: ${each})`;
      break;
    }
    case 'serial':
      why = `one node's share after another, each written only after the previous node had answered: the sum over the nodes (${used.map((node) => formatCount(node.roundTrips)).join(' + ')}: ${each})`;
      break;
    case 'sequential':
      why = `one command at a time, each sent to its key's node only after the previous reply: the sum over the nodes (${each})`;
      break;
    case 'one-node':
      why = `every command went to one node, ${used[0] ? address(used[0]) : 'none'}, ${oneNodeReason(doc)}`;
      break;
  }
  return `${carried}: ${path} — ${why}.${refusals(doc)}`;
}

/** Why a run's commands all went to one node. */
function oneNodeReason(doc: TraceDocument): string {
  const slots = new Set(doc.commands.map((command) => command.slot).filter((slot) => slot !== undefined));
  if (doc.run.mode === 'multi' || doc.run.mode === 'multikey') {
    const unit = doc.run.mode === 'multi' ? 'a transaction' : 'one multi-key command';
    return slots.size === 1
      ? `as ${unit} must: its keys share one hash tag, so one slot`
      : `as ${unit} goes whole, to its first key's node: a cluster cannot split it, and its keys span slots`;
  }
  return slots.size === 1 ? 'because every key shares one hash tag, so one slot' : 'because every key\'s slot is served there';
}

/** What the nodes refused, in Redis's words, counted: empty when they refused nothing. */
function refusals(doc: TraceDocument): string {
  const byText = new Map<string, number>();
  for (const command of doc.commands) {
    if ('error' in command && /^(CROSSSLOT|MOVED|ASK|TRYAGAIN|EXECABORT)\b/.test(command.error)) {
      const text = command.error.startsWith('MOVED') ? 'MOVED (another node serves the slot)' : command.error;
      byText.set(text, (byText.get(text) ?? 0) + 1);
    }
  }
  if (byText.size === 0) return '';
  const list = [...byText].map(([text, count]) => `${formatCount(count)} × “${text}”`).join(', ');
  return ` Refused by the node: ${list} — in a cluster, a batch's keys must share a slot, or the client must split it by node.`;
}
