// One cluster node's INFO counters over a run (trace cluster.nodeCounters): its read and write events, its
// error replies by prefix (INFO errorstats: errorstat_CROSSSLOT:count=1) and the calls it refused before
// running them (INFO commandstats: cmdstat_mset:…,rejected_calls=1). A node refuses a MOVED, ASK or
// CROSSSLOT command before running it: MONITOR shows none of them, these counters do. Read from the
// same `INFO all` text as the run's other counters (server-counters.ts), before t0 and after the last
// reply, on the housekeeping connection to that node. Pure.
import type { NodeCounters } from '../../trace/format/cluster-format.ts';
import { parseInfo } from '../redis/info-fields.ts';
import { parseSnapshot, serverDelta } from './server-counters.ts';

/** Error replies by prefix, and refused calls by command name (lower case), from one INFO all text. */
export interface RefusalCounts {
  errors: Map<string, number>;
  rejectedCalls: Map<string, number>;
}

export function parseRefusals(info: string): RefusalCounts {
  const errors = new Map<string, number>();
  const rejectedCalls = new Map<string, number>();
  for (const [name, value] of parseInfo(info)) {
    if (name.startsWith('errorstat_')) {
      const count = /(?:^|,)count=(\d+)/.exec(value);
      if (count) errors.set(name.slice('errorstat_'.length), Number(count[1]));
    } else if (name.startsWith('cmdstat_')) {
      const rejected = /(?:^|,)rejected_calls=(\d+)/.exec(value);
      if (rejected) rejectedCalls.set(name.slice('cmdstat_'.length), Number(rejected[1]));
    }
  }
  return { errors, rejectedCalls };
}

/** What grew between two readings, as a record; names that did not change left out. */
function grown(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, count] of after) {
    const delta = count - (before.get(name) ?? 0);
    if (delta > 0) out[name] = delta;
  }
  return out;
}

/**
 * One node's counters over the run from its INFO texts before and after. `runCommands`: the commands the
 * node counts for the run (total_commands_processed: a refused command is not counted), for `exclusive`.
 */
export function nodeCounters(node: string, before: string, after: string, runCommands: number): NodeCounters {
  const delta = serverDelta(parseSnapshot(before), parseSnapshot(after), runCommands, []);
  const was = parseRefusals(before);
  const now = parseRefusals(after);
  return {
    node,
    reads: delta.reads,
    writes: delta.writes,
    errors: grown(was.errors, now.errors),
    rejectedCalls: grown(was.rejectedCalls, now.rejectedCalls),
    exclusive: delta.exclusive,
  };
}
