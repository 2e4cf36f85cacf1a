// The text of the i-th wire command as the runner sent it, rebuilt from the trace's run info: which
// command the position carries (trace/format/wire-layout.ts: MULTI, EXEC, EVAL, EVALSHA, MSET/MGET, the GET
// and SET of a GET-COMPUTE-SET step, the held-connection PING), and keyPattern with `{i}` replaced by
// the index of the operation it belongs to (empty pattern: a command without a key, PING). Replies as
// recorded: OK, QUEUED, EXEC's array preview, an error's text.
import type { CommandRecord, RunInfo } from '../../../trace/format/trace-format.ts';
import { operationAt, wireCommandName, type WireRun } from '../../../trace/format/wire-layout.ts';
import { formatBytes, formatCount } from './number-format.ts';

/** What the text needs; a run without mode, operations or probes reads as one plain command per position. */
export type CommandTextRun = Pick<RunInfo, 'command' | 'keyPattern' | 'valueBytes'> & Partial<Pick<RunInfo, 'mode' | 'operations' | 'probes' | 'observed'>>;

export function commandKey(run: Pick<RunInfo, 'keyPattern'>, index: number): string {
  return run.keyPattern.replaceAll('{i}', String(index));
}

function wireRun(run: CommandTextRun): WireRun | null {
  return run.mode !== undefined && run.operations !== undefined && run.probes !== undefined
    ? { mode: run.mode, command: run.command, operations: run.operations, probes: run.probes, ...(run.observed ? { observed: run.observed } : {}) }
    : null;
}

/** The command name at wire position `index`: MULTI, INCR, EXEC, EVAL, EVALSHA, MSET, GET, SET, PING. */
export function wireName(run: CommandTextRun, index: number): string {
  const wire = wireRun(run);
  return wire ? wireCommandName(wire, index) : run.command;
}

/** Whether a run's wire commands are not simply N × its command (MULTI/EXEC, EVAL, EVALSHA, MSET/MGET, GET + SET, the held PING). */
export function wireDiffers(run: Pick<RunInfo, 'mode' | 'command' | 'probes'> & Partial<Pick<RunInfo, 'observed'>>): boolean {
  return run.observed !== undefined || ['multi', 'eval', 'evalsha', 'multikey'].includes(run.mode) || run.command === 'GET-COMPUTE-SET' || run.probes.heldConnection;
}

/** e.g. "INCR pipescope:abc:counter", "SET pipescope:abc:key:3 <16 B value>", "MULTI", "EVAL <Lua: 10 × INCR>". */
export function commandText(run: CommandTextRun, index: number): string {
  if (run.observed) return run.observed.commands[index] ?? '?';
  const wire = wireRun(run);
  if (!wire) return plainText(run, run.command, index);
  const name = wireCommandName(wire, index);
  const operation = operationAt(wire, index);
  const ops = formatCount(wire.operations);
  if (name === 'EVAL') return `EVAL <Lua: ${ops} × ${run.command}>`;
  if (name === 'MSET' || name === 'MGET') {
    const last = commandKey(run, wire.operations - 1);
    return `${name} ${commandKey(run, 0)}${wire.operations > 1 ? ` … ${last}` : ''} (${ops} keys${name === 'MSET' ? `, ${formatBytes(run.valueBytes)} values` : ''})`;
  }
  if (operation === null) return name; // MULTI, EXEC, the held-connection PING
  if (name === 'EVALSHA') return `EVALSHA <sha1> ${commandKey(run, operation)}`.trimEnd();
  if (run.command === 'GET-COMPUTE-SET') return name === 'GET' ? `GET ${commandKey(run, operation)}` : `SET ${commandKey(run, operation)} <GET’s value × 2 + 1>`;
  return plainText(run, name, operation);
}

function plainText(run: CommandTextRun, name: string, index: number): string {
  const key = commandKey(run, index);
  const parts: string[] = [name];
  if (key) parts.push(key);
  if (name === 'SET') parts.push(`<${formatBytes(run.valueBytes)} value>`);
  return parts.join(' ');
}

/** A reply as recorded, for a label or a table cell: OK, QUEUED, 11, (nil), EXEC's "[1,2,…]", or the error's text. */
export function replyText(record: CommandRecord): string {
  if ('error' in record) return record.error;
  return record.reply === null ? '(nil)' : String(record.reply);
}
