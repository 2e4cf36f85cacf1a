// The runner's allow-list. Pipescope only ever sends these commands, and every key it names must lie
// in the run's namespace, so a run cannot read, change or delete data that is not its own.
// v3: MULTI and EXEC (no arguments); EVAL and EVALSHA only of Pipescope's own scripts (lua-scripts.ts,
// by text or by SHA1), every key in KEYS in the namespace; SCRIPT LOAD of those scripts only (never
// SCRIPT FLUSH or anything else); MSET and MGET with every key in the namespace; and the two
// deliberately malformed commands of a queueing error: INCR without its key, EVALSHA of our script
// without its numkeys (Redis refuses both unrun, naming no key). The warm-up's last round trips use a
// twin of the run's command (ECHO, INCRBY, GETRANGE, SETEX: runs/warmup.ts), on its own keys.
import { isOwnScript, isOwnScriptSha } from './lua-scripts.ts';

export const RUN_NAMESPACE_PREFIX = 'pipescope:';

const KEYLESS = new Set(['PING', 'ECHO', 'INFO', 'TIME', 'MULTI', 'EXEC']);
const SINGLE_KEY = new Set(['INCR', 'SET', 'GET', 'INCRBY', 'GETRANGE', 'SETEX']);
const MULTI_KEY = new Set(['UNLINK', 'EXISTS', 'MGET', 'TYPE']);
const SCRIPTS = new Set(['EVAL', 'EVALSHA', 'SCRIPT']);

export class RefusedCommandError extends Error {
  override name = 'RefusedCommandError';
}

export function namespaceFor(runId: string): string {
  if (!/^[a-z0-9-]{4,64}$/.test(runId)) throw new RefusedCommandError(`Invalid run id "${runId}"`);
  return `${RUN_NAMESPACE_PREFIX}${runId}:`;
}

/** Throws unless the command is on the allow-list and every key it names is under `namespace`. */
export function assertAllowed(namespace: string, name: string, args: readonly (string | number)[]): void {
  const command = name.toUpperCase();
  const keys = KEYLESS.has(command) ? [] : SINGLE_KEY.has(command) ? args.slice(0, 1) : MULTI_KEY.has(command) ? args
    : command === 'MSET' ? args.filter((_, i) => i % 2 === 0)
    : SCRIPTS.has(command) ? scriptKeys(command, args)
    : null;
  if (keys === null) throw new RefusedCommandError(`Refused: ${command} is not a command Pipescope runs.`);
  if (command === 'INFO' && args.some((section) => !['server', 'stats', 'memory', 'clients', 'all'].includes(String(section)))) {
    throw new RefusedCommandError('Refused: INFO is only read for server, stats, memory, clients and all.');
  }
  if ((command === 'MULTI' || command === 'EXEC') && args.length > 0) throw new RefusedCommandError(`Refused: ${command} takes no arguments.`);
  if (!namespace.startsWith(RUN_NAMESPACE_PREFIX)) throw new RefusedCommandError(`Refused: "${namespace}" is not a run namespace.`);
  // INCR alone is the planted queueing error (Redis refuses it for its arity); no other keyed command goes without a key.
  if ((SINGLE_KEY.has(command) || MULTI_KEY.has(command) || command === 'MSET') && keys.length === 0 && !(command === 'INCR' && args.length === 0)) {
    throw new RefusedCommandError(`Refused: ${command} without a key.`);
  }
  if (command === 'MSET' && args.length % 2 !== 0) throw new RefusedCommandError('Refused: MSET needs a value for each key.');
  for (const key of keys) {
    if (typeof key !== 'string' || !key.startsWith(namespace)) {
      throw new RefusedCommandError(`Refused: ${command} names key "${String(key)}" outside the run namespace ${namespace}*.`);
    }
  }
}

/** The keys an EVAL or EVALSHA names (KEYS), once the script is known to be ours; SCRIPT: LOAD of ours only. */
function scriptKeys(command: string, args: readonly (string | number)[]): readonly (string | number)[] {
  const [script, numkeys, ...rest] = args;
  if (command === 'SCRIPT') {
    if (String(script).toUpperCase() !== 'LOAD' || args.length !== 2 || !isOwnScript(String(numkeys))) {
      throw new RefusedCommandError('Refused: SCRIPT is only used to LOAD one of Pipescope\'s own scripts.');
    }
    return [];
  }
  const own = command === 'EVAL' ? isOwnScript(String(script ?? '')) : isOwnScriptSha(String(script ?? ''));
  if (!own) throw new RefusedCommandError(`Refused: ${command} runs only Pipescope's own scripts.`);
  if (command === 'EVALSHA' && args.length === 1) return []; // the planted queueing error: no numkeys, refused unrun
  const count = Number(numkeys);
  if (!Number.isInteger(count) || count < 0 || count > rest.length) throw new RefusedCommandError(`Refused: ${command} with a bad key count "${String(numkeys)}".`);
  return rest.slice(0, count);
}
