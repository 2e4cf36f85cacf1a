// Layout of a cluster run's diagram (SVG mode): each request as an arrow from its socket's lane to the
// node it was sent to, at its measured sentUs, and each reply back at its repliedUs; the sockets' write
// and read boxes on their lanes; every redirect as an arrow from the node that answered MOVED, ASK or
// TRYAGAIN to the node the command was sent to next (with the error's text, and the ASKING an ASK
// requires), a refusal that points nowhere (CROSSSLOT) as a mark on the refusing node's lifeline; a
// client library's refusal as a mark on the client lane (nothing was on the wire); the lanes' heads;
// and the slot strip: who owned each slot, and the slots the run's commands used. Pure: times in µs in,
// plot px out (cluster-geometry.ts).
import type { ClusterRun } from '../model/cluster-run.ts';
import { slotRuns } from '../model/cluster-run.ts';
import { splitHashTag, type TaggedKey } from '../model/hash-tag.ts';
import type { TraceColumns } from '../model/trace-columns.ts';
import { commandText, replyText } from '../format/command-text.ts';
import { formatBytes, formatCount, formatUs, plural } from '../format/number-format.ts';
import { slotX, type ClusterGeometry } from './cluster-geometry.ts';
import type { LaneHeads } from './lane-heads-layout.ts';
import type { TimeScale } from './time-scale-layout.ts';

export interface ClusterArrow {
  /** Command index. */
  index: number;
  kind: 'request' | 'reply';
  /** Plot y (both ends: the client's measured time). */
  y: number;
  x1: number;
  x2: number;
  error: boolean;
  /** The lane colour of the node it went to (index into the node palette; -1 unknown). */
  colour: number;
  /** Requests: the command with its {hash tag} apart (while MAX_LABELLED_REQUESTS or fewer are in view); replies: an error's text. */
  label?: TaggedKey;
}

export interface SocketMark {
  kind: 'write' | 'read';
  /** Index into doc.writes / doc.reads. */
  event: number;
  x: number;
  y: number;
  /** e.g. "write: 4 cmds, 160 B → 127.0.0.1:7601" (the mark's title). */
  title: string;
}

export interface RedirectArrow {
  /** Index in cluster.redirects. */
  index: number;
  kind: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** The error as Redis sent it. */
  label: string;
  /** ASK: where the ASKING sent before the command goes (the target's end), else null. */
  asking: { x: number; y: number } | null;
}

/** A refusal that points at no other node (CROSSSLOT; TRYAGAIN retried where it was): a mark on the node's lifeline. */
export interface RefusalMark {
  index: number;
  kind: string;
  x: number;
  y: number;
  label: string;
  title: string;
}

export interface ClientRefusalMark {
  x: number;
  y: number;
  /** "refused by ioredis 6.0.0 before sending: …", shortened to the room; the whole in title. */
  label: string;
  title: string;
}

export interface NodeHead {
  id: string;
  x: number;
  colour: number;
  replica: boolean;
  title: string;
  note: string;
}

export interface SocketHead {
  connection: number;
  x: number;
  colour: number;
  title: string;
}

export interface StripSegment {
  /** The first slot of the range. */
  first: number;
  x: number;
  width: number;
  colour: number;
  /** "7601: 0–5460" (printed, or shortened, where the label placement finds room: cluster-labels-layout.ts). */
  label: string;
  title: string;
}

export interface SlotTick {
  slot: number;
  x: number;
  commands: number;
  colour: number;
  title: string;
}

export interface ClusterLayout {
  requests: ClusterArrow[];
  replies: ClusterArrow[];
  marks: SocketMark[];
  redirects: RedirectArrow[];
  refusals: RefusalMark[];
  clientRefusal: ClientRefusalMark | null;
  /** The library's error thrown at its caller after sending, when it threw one. */
  clientError: ClientRefusalMark | null;
  nodeHeads: NodeHead[];
  socketHeads: SocketHead[];
  /** The lifelines: x, colour, replica or not. */
  lifelines: { id: string; x: number; colour: number; replica: boolean }[];
  segments: StripSegment[];
  ticks: SlotTick[];
  /** Half a tick's width, px: 4, narrower where ticks crowd (hundreds of slots), down to a hairline. */
  tickHalfWidth: number;
  /** Whether the ticks are so many that they are drawn as faint hairlines (the strip stays readable under them). */
  denseTicks: boolean;
  /** What the strip shows and where it was read. */
  stripCaption: string;
  commandsDrawn: number;
}

/** Requests are labelled with their command and key only while this few are in view. */
export const MAX_LABELLED_REQUESTS = 40;
/** px per character of the diagram's 11 px labels (for fitting text). */
const CHAR_PX = 6.3;

export function clusterLayout(columns: TraceColumns, run: ClusterRun, scale: TimeScale, g: ClusterGeometry): ClusterLayout {
  const { doc } = columns;
  const cluster = doc.cluster!;
  const inView = (y: number) => y >= g.plotTop - 8 && y <= g.plotBottom + 8;
  const colourOfNode = (id: string | undefined) => (id === undefined ? -1 : run.byId.get(id)?.colour ?? -1);
  const socketX = (k: number | undefined) => (k === undefined ? g.clientX : g.socketX.get(k) ?? g.clientX);
  const nodeX = (id: string | undefined) => (id === undefined ? g.serverX : g.nodeX.get(id) ?? g.serverX);
  const redirected = new Set(cluster.redirects.map((r) => r.command));

  const requests: ClusterArrow[] = [];
  const replies: ClusterArrow[] = [];
  const drawn = new Set<number>();
  doc.commands.forEach((c, i) => {
    const colour = colourOfNode(c.node);
    const from = socketX(c.connection);
    const to = nodeX(c.node);
    const sentY = scale(c.sentUs);
    if (inView(sentY)) {
      requests.push({ index: i, kind: 'request', y: sentY, x1: from, x2: to, error: false, colour });
      drawn.add(i);
    }
    const repliedY = scale(c.repliedUs);
    if (inView(repliedY)) {
      // A resharding run's wrong answer (valueStored: what the key held) is marked as an error, in words.
      const wrong = c.valueStored !== undefined;
      const error = 'error' in c || wrong;
      // A redirect's text goes on its own arrow; other errors are labelled on their reply.
      const label = wrong
        ? { before: `✕ answer ≠ value stored: ${shorten(replyText(c), 30)}`, tag: '', after: '' }
        : error && !redirected.has(i) ? { before: `✕ ${shorten(replyText(c), 40)}`, tag: '', after: '' } : undefined;
      replies.push({ index: i, kind: 'reply', y: repliedY, x1: to, x2: from, error, colour, ...(label ? { label } : {}) });
      drawn.add(i);
    }
  });
  // Which of them are printed, and how short, is the label placement's (cluster-labels-layout.ts).
  if (requests.length <= MAX_LABELLED_REQUESTS) for (const a of requests) a.label = splitHashTag(commandText(doc.run, a.index));

  const marks: SocketMark[] = [];
  const address = (k: number | undefined) => (k === undefined ? '' : ` → ${cluster.connections[k]?.address ?? '?'}`);
  doc.writes.forEach((w, k) => {
    const y = scale(w.atUs);
    if (inView(y)) marks.push({ kind: 'write', event: k, x: socketX(w.connection), y, title: `write: ${formatCount(w.commands)} ${w.commands === 1 ? 'cmd' : 'cmds'}, ${formatBytes(w.bytes)}${address(w.connection)}` });
  });
  doc.reads.forEach((r, k) => {
    const y = scale(r.atUs);
    if (inView(y)) marks.push({ kind: 'read', event: k, x: socketX(r.connection), y, title: `read: ${formatCount(r.replies)} ${r.replies === 1 ? 'reply' : 'replies'}, ${formatBytes(r.bytes)}${address(r.connection).replace('→', '←')}` });
  });

  const redirects: RedirectArrow[] = [];
  const refusals: RefusalMark[] = [];
  for (const r of run.redirects) {
    const { redirect } = r;
    const y1 = scale(redirect.atUs);
    const y2 = r.followedAtUs === null ? y1 : scale(r.followedAtUs);
    if (!inView(y1) && !inView(y2)) continue;
    if (r.toNode === null || r.toNode === redirect.from) {
      const where = redirect.kind === 'CROSSSLOT' ? 'refused at the server' : r.followedAtUs === null ? 'not retried' : 'retried on the same node';
      refusals.push({ index: r.index, kind: redirect.kind, x: nodeX(redirect.from), y: y1, label: `${redirect.kind} · ${where}`, title: redirect.error });
      continue;
    }
    redirects.push({
      index: r.index, kind: redirect.kind, x1: nodeX(redirect.from), y1, x2: nodeX(r.toNode), y2, label: redirect.error,
      asking: redirect.kind === 'ASK' && r.followedAtUs !== null ? { x: nodeX(r.toNode), y: y2 } : null,
    });
  }

  const refusal = cluster.clientRefusal;
  let clientRefusal: ClientRefusalMark | null = null;
  if (refusal) {
    const when = refusal.atUs === undefined ? '' : ` (${formatUs(refusal.atUs)} after t0)`;
    const title = `refused by ${refusal.library} before sending${when}: ${refusal.message} — nothing went on the wire`;
    const x = g.clientX;
    clientRefusal = { x, y: g.plotTop + 14, label: shorten(title, Math.max(12, Math.floor((g.width - x - 24) / CHAR_PX))), title };
  }
  // The library's call threw at its caller after sending (node-redis execAsPipeline at a MOVED): marked on
  // the client lane when it happened (kept inside the plot: it may come after the last reply, which ends the
  // time axis), its time in words; the replies drawn are what came off the wire all the same.
  const thrown = cluster.clientError;
  let clientError: ClientRefusalMark | null = null;
  if (thrown) {
    const title = `${thrown.library} threw at its caller at ${formatUs(thrown.atUs)}: ${thrown.message} — the replies that succeeded were not handed on`;
    const x = g.clientX;
    const y = Math.max(g.plotTop + 14, Math.min(scale(thrown.atUs), g.plotBottom - 4));
    clientError = { x, y, label: shorten(title, Math.max(12, Math.floor((g.width - x - 24) / CHAR_PX))), title };
  }

  const nodeHeads: NodeHead[] = [];
  const lifelines: ClusterLayout['lifelines'] = [];
  for (const row of run.nodes) {
    const x = g.nodeX.get(row.node.id);
    if (x === undefined) continue;
    const replica = row.node.role === 'replica';
    lifelines.push({ id: row.node.id, x, colour: row.colour, replica });
    if (replica) continue; // its head would crowd its master's: the master's note names it
    const slots = row.node.slots.reduce((sum, [a, b]) => sum + b - a + 1, 0);
    const replicas = row.replicas.length ? ` · ${plural(row.replicas.length, 'replica')}` : '';
    nodeHeads.push({ id: row.node.id, x, colour: row.colour, replica, title: row.node.address, note: `master · ${formatCount(slots)} slots${replicas}` });
  }
  const socketHeads = run.connectionOrder.map((k) => ({
    connection: k, x: socketX(k), colour: colourOfNode(cluster.connections[k]?.node), title: `socket ${k + 1} → ${cluster.connections[k]?.address ?? '?'}`,
  }));

  const segments: StripSegment[] = slotRuns(run.slotOwner).map(([first, last, owner]) => {
    const x = slotX(g, first);
    const width = slotX(g, last + 1) - x;
    const master = owner >= 0 ? run.masters[owner]!.node : null;
    const text = master ? `${portOf(master.address)}: ${first}–${last}` : `${first}–${last} unserved`;
    return { first, x, width, colour: owner, label: text, title: master ? `slots ${first}–${last}: ${master.address}` : `slots ${first}–${last}: no master served them` };
  });
  const bySlot = new Map<number, { commands: number; first: number }>();
  doc.commands.forEach((c, i) => {
    if (c.slot === undefined) return;
    const seen = bySlot.get(c.slot);
    if (seen) seen.commands++;
    else bySlot.set(c.slot, { commands: 1, first: i });
  });
  const ticks: SlotTick[] = [...bySlot].sort((a, b) => a[0] - b[0]).map(([slot, { commands, first }]) => {
    const owner = run.slotOwner[slot]!;
    return {
      slot, x: slotX(g, slot + 0.5), commands, colour: owner,
      title: `slot ${slot}: ${plural(commands, 'command')}, e.g. ${commandText(doc.run, first)}${owner >= 0 ? ` — ${run.masters[owner]!.node.address}` : ''}`,
    };
  });
  const source = cluster.topology.source === 'cluster-shards' ? 'CLUSTER SHARDS' : 'CLUSTER SLOTS';
  const stripCaption = `hash slots 0–16383, by owner (${source}, read before the run) · ▼ a slot this run's commands used (${plural(ticks.length, 'slot')})`;
  // Ticks closer than 4 px apart shrink with their spacing, to hairlines; then they are drawn faint, so the many used slots read as a shade.
  const spacing = (g.strip.x1 - g.strip.x0) / Math.max(1, ticks.length);
  const tickHalfWidth = Math.min(4, Math.max(0.5, spacing * 0.4));
  return {
    requests, replies, marks, redirects, refusals, clientRefusal, clientError, nodeHeads, socketHeads, lifelines, segments, ticks, tickHalfWidth, denseTicks: spacing < 4,
    stripCaption, commandsDrawn: drawn.size,
  };
}

/** What a frame draws in `mode`: dense ('canvas'), the arrows and socket marks give way to the canvas's bands. */
export function clusterDrawn(layout: ClusterLayout, mode: 'svg' | 'canvas'): ClusterLayout {
  return mode === 'svg' ? layout : { ...layout, requests: [], replies: [], marks: [] };
}

/** What had happened by the playhead (µs since t0): arrows, marks and redirects after it are left out. */
export function clusterAtPlayhead(layout: ClusterLayout, columns: TraceColumns, atUs: number): ClusterLayout {
  const { doc } = columns;
  const redirects = doc.cluster?.redirects ?? [];
  return {
    ...layout,
    requests: layout.requests.filter((a) => doc.commands[a.index]!.sentUs <= atUs),
    replies: layout.replies.filter((a) => doc.commands[a.index]!.repliedUs <= atUs),
    marks: layout.marks.filter((m) => (m.kind === 'write' ? doc.writes[m.event]! : doc.reads[m.event]!).atUs <= atUs),
    redirects: layout.redirects.filter((r) => redirects[r.index]!.atUs <= atUs),
    refusals: layout.refusals.filter((r) => redirects[r.index]!.atUs <= atUs),
  };
}

/**
 * Node heads are centred on their lifelines: where their texts would run into a neighbour's (a phone, a
 * narrow embed), the address becomes its port and the note its slot count, or goes; where even the ports
 * would touch, they alternate between the two rows, the notes left out (the tooltip and the node table
 * keep all of it).
 */
function portOf(address: string): string {
  return address.slice(address.lastIndexOf(':') + 1) || address;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The heads over a cluster run's lanes: the client's sockets on the left; each node heads its own lifeline (NodeHead). */
export function clusterHeads(heads: LaneHeads, run: ClusterRun): LaneHeads {
  const sockets = run.connectionOrder.length;
  return {
    ...heads,
    clientNote: sockets === 0 ? 'no socket: nothing was sent' : `a lane per socket (${formatCount(sockets)})`,
    // Its place over the lanes is taken by the sockets' and nodes' heads: it goes under the slot strip (cluster-labels-layout.ts).
    densityNote: null,
    server: '',
    serverNote: '',
    serverLaneNote: null,
  };
}
