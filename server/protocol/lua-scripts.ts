// The Lua scripts Pipescope runs, as fixed texts: the command guard allows EVAL, EVALSHA and SCRIPT
// LOAD of these and nothing else, so a run can never execute code it did not ship. One script per
// operation does all of a run's operations in one EVAL (mode eval); one does a single operation per
// call (mode evalsha, loaded with SCRIPT LOAD before t0). Keys always travel in KEYS (never built in
// Lua), so a script names only keys the guard has checked and a cluster could route it.
import { createHash } from 'node:crypto';
import type { CommandName } from '../../trace/format/trace-format.ts';

/**
 * All operations in one call. ARGV[1]: how many operations; KEYS: the keys, operation i (from 1)
 * using KEYS[((i - 1) % #KEYS) + 1] (one key for a one-key workload, one per operation otherwise);
 * ARGV[2]: the SET value. Returns the last operation's reply. An error reply from redis.call stops
 * the script there, what ran before it staying done (scripts have no rollback either).
 * GET-COMPUTE-SET: GET, value × 2 + 1, SET, n times, on the server: computeNext (run-workload.ts) in
 * Lua. Both compute in doubles and write every digit with '%.0f' (Lua's tostring would print %.14g,
 * 1.1258999068426e+15 after 50 steps), so a sequential run and an EVAL write the same text.
 */
export const BATCH_SCRIPTS: Readonly<Record<CommandName, string>> = {
  PING: "local r for i = 1, tonumber(ARGV[1]) do r = redis.call('PING') end return r",
  INCR: "local r for i = 1, tonumber(ARGV[1]) do r = redis.call('INCR', KEYS[((i - 1) % #KEYS) + 1]) end return r",
  SET: "local r for i = 1, tonumber(ARGV[1]) do r = redis.call('SET', KEYS[((i - 1) % #KEYS) + 1], ARGV[2]) end return r",
  GET: "local r for i = 1, tonumber(ARGV[1]) do r = redis.call('GET', KEYS[((i - 1) % #KEYS) + 1]) end return r",
  'GET-COMPUTE-SET':
    "local r for i = 1, tonumber(ARGV[1]) do local k = KEYS[((i - 1) % #KEYS) + 1] r = string.format('%.0f', (tonumber(redis.call('GET', k)) or 0) * 2 + 1) redis.call('SET', k, r) end return r",
};

/** One operation per call (mode evalsha): KEYS[1] its key, ARGV[1] the SET value. */
export const SINGLE_SCRIPTS: Readonly<Partial<Record<CommandName, string>>> = {
  PING: "return redis.call('PING')",
  INCR: "return redis.call('INCR', KEYS[1])",
  SET: "return redis.call('SET', KEYS[1], ARGV[1])",
  GET: "return redis.call('GET', KEYS[1])",
};

/** The SHA1 Redis names a script by (SCRIPT LOAD's reply, EVALSHA's argument): hex of its text. */
export function scriptSha(script: string): string {
  return createHash('sha1').update(script).digest('hex');
}

const OWN_SCRIPTS = new Set<string>([...Object.values(BATCH_SCRIPTS), ...Object.values(SINGLE_SCRIPTS)]);
const OWN_SHAS = new Set<string>([...OWN_SCRIPTS].map(scriptSha));

export function isOwnScript(text: string): boolean {
  return OWN_SCRIPTS.has(text);
}

export function isOwnScriptSha(sha: string): boolean {
  return OWN_SHAS.has(sha.toLowerCase());
}
