// Which command each position on the wire carries. A trace lists one record per command on the wire
// (run.n of them); the modes beyond plain pipelines frame the work (MULTI … EXEC), fold it into one
// command (EVAL, MSET/MGET) or split each operation in two (GET then SET), so run.n and run.operations
// differ. The layout follows from the run's mode, command, operations and probes alone: the recorder,
// the trace checks and the views all derive it here, so it is never stored twice.
import type { CommandName, RunInfo, RunMode } from './trace-format.ts';

/** An observed connection (run.observed) names each of its commands itself. */
export type WireRun = Pick<RunInfo, 'mode' | 'command' | 'operations'> & {
  probes: Pick<RunInfo['probes'], 'heldConnection'>;
  observed?: { commands: readonly string[] };
  /** A cluster run that followed redirects: the commands it added (resends, and ASKING at the positions listed). */
  redirectCommands?: { resent: number; asking: readonly number[] } | undefined;
};

/** Commands a cluster run added on the wire to follow redirects (RunInfo.redirectCommands). */
function redirectAdded(run: WireRun): number {
  return run.redirectCommands ? run.redirectCommands.resent + run.redirectCommands.asking.length : 0;
}

/** An observed command's name as sent, upper-cased ("SET" of "SET k v"). */
function observedCommandName(text: string | undefined): string {
  if (text === undefined) return '?';
  const space = text.indexOf(' ');
  return (space === -1 ? text : text.slice(0, space)).toUpperCase();
}

/** The native multi-key command that does `command` for many keys at once, if there is one. */
export function multiKeyCommand(command: CommandName): 'MSET' | 'MGET' | null {
  return command === 'SET' ? 'MSET' : command === 'GET' ? 'MGET' : null;
}

/** Wire commands per operation when each operation is sent on its own (GET-COMPUTE-SET: a GET and a SET). */
function perOperation(command: CommandName): number {
  return command === 'GET-COMPUTE-SET' ? 2 : 1;
}

/** Commands on the wire for `operations` operations in `mode`, the held-connection PING not included. */
export function workCommandCount(mode: RunMode, command: CommandName, operations: number): number {
  switch (mode) {
    case 'multi':
      return operations * perOperation(command) + 2;
    case 'eval':
    case 'multikey':
      return 1;
    case 'evalsha':
      return operations;
    default:
      return operations * perOperation(command);
  }
}

/**
 * v4. Operations done by the first `replied` wire commands, for the ops/s of a run cut short: each plain
 * operation is done when its last wire command replied; a transaction's or a single command's work only
 * when its last reply (EXEC's, EVAL's, MSET's) arrived.
 */
export function completedOperations(run: WireRun, replied: number): number {
  const work = workCommandCount(run.mode, run.command, run.operations);
  if (replied >= work) return run.operations;
  if (run.mode === 'multi' || run.mode === 'eval' || run.mode === 'multikey') return 0;
  return Math.floor(replied / perOperation(run.command));
}

/** run.n: every command on the wire, the held-connection PING included. */
export function wireCommandCount(run: WireRun): number {
  return workCommandCount(run.mode, run.command, run.operations) + (run.probes.heldConnection ? 1 : 0) + redirectAdded(run);
}

/** The name of the command at wire position `index` (0 ≤ index < wireCommandCount(run)). */
export function wireCommandName(run: WireRun, index: number): string {
  if (run.observed) return observedCommandName(run.observed.commands[index]);
  // A cluster run's commands are numbered in the order written, resends among them: each is its run's command, but ASKING.
  if (run.redirectCommands) return run.redirectCommands.asking.includes(index) ? 'ASKING' : operationCommand(run.command, index);
  const work = workCommandCount(run.mode, run.command, run.operations);
  if (index >= work) return 'PING';
  switch (run.mode) {
    case 'multi':
      return index === 0 ? 'MULTI' : index === work - 1 ? 'EXEC' : operationCommand(run.command, index - 1);
    case 'eval':
      return 'EVAL';
    case 'evalsha':
      return 'EVALSHA';
    case 'multikey':
      return multiKeyCommand(run.command) ?? run.command;
    default:
      return operationCommand(run.command, index);
  }
}

/** Which operation (from 0) the wire command at `index` belongs to; null for framing (MULTI, EXEC, the held PING) and for a command that carries them all. */
export function operationAt(run: WireRun, index: number): number | null {
  if (run.observed) return index;
  // A cluster run numbers its commands in the order written, not by operation; ASKING belongs to none.
  if (run.redirectCommands) return run.redirectCommands.asking.includes(index) ? null : index;
  const work = workCommandCount(run.mode, run.command, run.operations);
  if (index >= work) return null;
  switch (run.mode) {
    case 'multi':
      return index === 0 || index === work - 1 ? null : Math.floor((index - 1) / perOperation(run.command));
    case 'eval':
    case 'multikey':
      return null;
    case 'evalsha':
      return index;
    default:
      return Math.floor(index / perOperation(run.command));
  }
}

function operationCommand(command: CommandName, index: number): string {
  if (command !== 'GET-COMPUTE-SET') return command;
  return index % 2 === 0 ? 'GET' : 'SET';
}
