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

/**
 * A key a run may have written: `pipescope:<run id>:` (the id as runs/run-id.ts makes it) and one of the
 * workload's key shapes (run-workload.ts), its warm-up's (`warmup:` before it), the neighbour's and the
 * sweep reference's. The key janitor deletes nothing else, so a user's `pipescope:config` or
 * `pipescope:not-a-run:1` is never taken for a leftover.
 */
export const RUN_KEY = /^pipescope:(?:([0-9a-z]{6,12}-[0-9a-f]{8})|\{([0-9a-z]{6,12}-[0-9a-f]{8})\}):(?:warmup:)?(?:key:\d+|counter(?::\d+)?|value|neighbor|bench)$/;
/** A run's lease (runs/run-lease.ts): while it exists, the run's keys are its own. */
export const LEASE_PREFIX = `${RUN_NAMESPACE_PREFIX}lease:`;
/** The set of run ids whose keys may still exist: the janitor's cheap look for leftovers. */
export const LEASE_REGISTRY = `${RUN_NAMESPACE_PREFIX}leases`;
/** What the janitor's SCAN asks for: every key under the prefix (it keeps only RUN_KEY and LEASE_KEY matches). */
export const SCAN_PATTERN = `${RUN_NAMESPACE_PREFIX}*`;
const LEASE_KEY = /^pipescope:lease:([0-9a-z]{6,12}-[0-9a-f]{8})$/;

/** The run id a run key belongs to, or null when the key is not a run's (RUN_KEY). */
export function runIdOfKey(key: string): string | null {
  const match = RUN_KEY.exec(key);
  return match ? (match[1] ?? match[2]!) : null;
}

/** The namespace a run key lies in (its run's, hash-tagged or not: namespaceFor), or null when the key is not a run's. */
export function namespaceOfKey(key: string): string | null {
  const match = RUN_KEY.exec(key);
  return match ? (match[1] ? namespaceFor(match[1]) : hashTaggedNamespaceFor(match[2]!)) : null;
}

/** The run id of a lease key, or null when the key is not a lease. */
export function runIdOfLease(key: string): string | null {
  return LEASE_KEY.exec(key)?.[1] ?? null;
}

export function leaseKeyFor(runId: string): string {
  const key = `${LEASE_PREFIX}${runId}`;
  if (!LEASE_KEY.test(key)) throw new RefusedCommandError(`Invalid run id "${runId}" for a lease`);
  return key;
}

/**
 * The lease and janitor commands (runs/run-lease.ts, runs/key-janitor.ts), allowed exactly: SET of a
 * lease with PX, PEXPIRE and GET of leases, UNLINK of leases or run keys, SADD/SREM/SMEMBERS of the
 * registry, and SCAN of the prefix. Never KEYS, never FLUSH*, never a key of another shape.
 */
export function assertHousekeeping(name: string, args: readonly (string | number)[]): void {
  const command = name.toUpperCase();
  const text = args.map(String);
  const leases = (keys: readonly string[]) => keys.length > 0 && keys.every((key) => LEASE_KEY.test(key));
  const runKeys = (keys: readonly string[]) => keys.length > 0 && keys.every((key) => RUN_KEY.test(key) || LEASE_KEY.test(key));
  const ok =
    command === 'SET' ? text.length === 4 && leases([text[0]!]) && text[2]!.toUpperCase() === 'PX' && /^\d+$/.test(text[3]!)
    : command === 'PEXPIRE' ? text.length === 2 && leases([text[0]!]) && /^\d+$/.test(text[1]!)
    : command === 'GET' ? text.length === 1 && leases(text)
    : command === 'MGET' ? leases(text)
    : command === 'UNLINK' ? runKeys(text)
    : command === 'SADD' || command === 'SREM' ? text.length >= 2 && text[0] === LEASE_REGISTRY && text.slice(1).every((id) => LEASE_KEY.test(`${LEASE_PREFIX}${id}`))
    : command === 'SMEMBERS' ? text.length === 1 && text[0] === LEASE_REGISTRY
    : command === 'SCAN' ? text.length === 5 && /^\d+$/.test(text[0]!) && text[1]!.toUpperCase() === 'MATCH' && text[2]!.startsWith(RUN_NAMESPACE_PREFIX) && text[3]!.toUpperCase() === 'COUNT' && /^\d+$/.test(text[4]!)
    : false;
  if (!ok) throw new RefusedCommandError(`Refused: ${command} ${text.slice(0, 3).join(' ')} is not a lease or janitor command Pipescope sends.`);
}

export function namespaceFor(runId: string): string {
  if (!/^[a-z0-9-]{4,64}$/.test(runId)) throw new RefusedCommandError(`Invalid run id "${runId}"`);
  return `${RUN_NAMESPACE_PREFIX}${runId}:`;
}

/**
 * A run's namespace with its id as the keys' hash tag, `pipescope:{<run id>}:`: on a Redis Cluster every
 * key of the run hashes to one slot (CRC16 of the id alone), and so lives on one node.
 */
export function hashTaggedNamespaceFor(runId: string): string {
  if (!/^[a-z0-9-]{4,64}$/.test(runId)) throw new RefusedCommandError(`Invalid run id "${runId}"`);
  return `${RUN_NAMESPACE_PREFIX}{${runId}}:`;
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
