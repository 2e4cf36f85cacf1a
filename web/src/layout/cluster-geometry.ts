// Where a cluster run's diagram puts things, in CSS px (the coordinate spaces of diagram-geometry.ts):
// the time axis on the left; the client's sockets as thin lanes, grouped by the node they go to (in
// the nodes' order), ending at clientX; one lifeline per master, spread over the rest of the width,
// each replica as a thinner lifeline just right of its master; and, under the plot, the slot strip
// (slots 0 … 16383 left to right). Same height as a single Redis's diagram, so hosts, the player and
// the exports size it alike. Pure.
import type { ClusterRun } from '../model/cluster-run.ts';
import { DIAGRAM_HEIGHT, diagramGeometry, type DiagramGeometry } from './diagram-geometry.ts';

export interface ClusterGeometry extends DiagramGeometry {
  /** x of each socket's lane, by index in cluster.connections. */
  socketX: ReadonlyMap<number, number>;
  /** x of each node's lifeline (masters and replicas), by node id. */
  nodeX: ReadonlyMap<string, number>;
  /** The slot strip: a bar from x0 (slot 0) to x1 (past slot 16383), top y and height in px. */
  strip: { x0: number; x1: number; top: number; height: number };
}

/** px between two socket lanes. */
export const SOCKET_GAP = 16;
/** px right of a master's lifeline where its replicas' lifelines start, and between replicas. */
export const REPLICA_GAP = 12;
/** Height of the room under the plot for the slot strip and its labels: ranges, caption, and in canvas mode the key to its bands. */
const STRIP_ROOM = 61;
const STRIP_HEIGHT = 10;
/** Room right of the last master for its replicas and the labels of redirects that end there: 70 px, a tenth of a phone's width. */
const rightMargin = (width: number) => Math.min(70, Math.max(30, width / 10));

export function clusterGeometry(width: number, run: ClusterRun, height = DIAGRAM_HEIGHT): ClusterGeometry {
  const base = diagramGeometry(width, height);
  const plotBottom = base.plotBottom - STRIP_ROOM;
  const sockets = Math.max(1, run.connectionOrder.length);
  // The client lane keeps room for the sockets and their write/read boxes; at most the single-Redis lane's width.
  const clientX = Math.min(base.clientX, base.axisX + 30 + sockets * SOCKET_GAP);
  const socketX = new Map(run.connectionOrder.map((k, i) => [k, clientX - (sockets - 1 - i) * SOCKET_GAP]));
  const masters = Math.max(1, run.masters.length);
  // The first master leaves the arrows a third of the room; the others share the rest evenly.
  const right = base.width - rightMargin(base.width);
  const left = clientX + Math.max(60, (right - clientX) / (masters + 1));
  const step = masters > 1 ? (right - left) / (masters - 1) : 0;
  const nodeX = new Map<string, number>();
  run.masters.forEach((m, i) => {
    const x = left + i * step;
    nodeX.set(m.node.id, x);
    m.replicas.forEach((r, j) => nodeX.set(r.id, x + REPLICA_GAP * (j + 1)));
  });
  const serverX = run.masters.length ? nodeX.get(run.masters.at(-1)!.node.id)! : right;
  const stripTop = plotBottom + 20;
  return {
    ...base, plotBottom, clientX, serverX, socketX, nodeX,
    strip: { x0: base.axisX, x1: base.width - 10, top: stripTop, height: STRIP_HEIGHT },
  };
}

/** x of `slot`'s left edge on the strip. */
export function slotX(g: ClusterGeometry, slot: number): number {
  return g.strip.x0 + ((g.strip.x1 - g.strip.x0) * slot) / 16384;
}
