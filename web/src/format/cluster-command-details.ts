// The tooltip rows a command of a cluster run adds: the node and socket it went to, its hash slot and
// the {hash tag} that chose it (emphasised), and a redirect it met or was sent after. None for a run
// against a single Redis. Pure.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { splitHashTag } from '../model/hash-tag.ts';
import { commandText, replyText } from './command-text.ts';
import { formatCount, formatUs } from './number-format.ts';

interface Row {
  label: string;
  value: string;
  emphasis?: string;
}

export function clusterCommandRows(doc: TraceDocument, index: number): Row[] {
  const cluster = doc.cluster;
  if (!cluster) return [];
  const command = doc.commands[index]!;
  const rows: Row[] = [];
  if (command.node !== undefined) {
    const node = cluster.topology.nodes.find((n) => n.id === command.node);
    const socket = command.connection === undefined ? '' : ` · socket ${formatCount(command.connection + 1)} of ${formatCount(cluster.connections.length)}`;
    rows.push({ label: 'node', value: `${node?.address ?? command.node}${node ? ` (${node.role})` : ''}${socket}` });
  }
  if (command.slot !== undefined) {
    const { tag } = splitHashTag(commandText(doc.run, index));
    rows.push(tag
      ? { label: 'slot', value: `${command.slot}: hash tag ${tag}, only it is hashed`, emphasis: tag }
      : { label: 'slot', value: `${command.slot}: the whole key is hashed (no {hash tag})` });
  }
  if (command.valueStored !== undefined) {
    const stored = command.valueStored === null ? '(nil)' : String(command.valueStored);
    rows.push({ label: 'answer ≠ value stored', value: `answered ${replyText(command)}; the key held ${stored}, written before the run` });
  }
  for (const r of cluster.redirects) {
    if (r.command === index) {
      const next = r.followedBy === undefined ? 'not sent again' : `sent again as command ${formatCount(r.followedBy + 1)}${r.kind === 'ASK' ? ', after ASKING' : ''}`;
      rows.push({ label: 'redirected', value: `${r.error} — ${next}` });
    }
    if (r.followedBy === index) {
      rows.push({ label: 'after', value: `${r.error} to command ${formatCount(r.command + 1)}, ${formatUs(r.atUs)} after t0` });
    }
  }
  return rows;
}
