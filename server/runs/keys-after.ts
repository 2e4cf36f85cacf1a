// Reads a run's keys back once it is over (trace keysAfter), on Pipescope's control connection, before
// they are deleted: what a transaction, a script or a pipeline with a planted error really left behind
// (the keys after a failing INCR still incremented; nothing applied after EXECABORT). GET for each key;
// a key holding something other than a string is shown by its TYPE. At most MAX_KEYS_AFTER keys, in
// the workload's key order, each once. On a Redis Cluster each GET goes to its key's node (redis/keyspace.ts).
import { sendPerGroup, type Keyspace } from '../redis/keyspace.ts';
import { KEYS_AFTER_SOURCE, MAX_KEYS_AFTER, type KeysAfter } from '../../trace/format/trace-format.ts';
import { assertAllowed } from '../protocol/command-guard.ts';
import type { Workload } from '../protocol/run-workload.ts';

export async function readKeysAfter(keyspace: Keyspace, namespace: string, workload: Workload, operations: number): Promise<KeysAfter> {
  const keys: string[] = [];
  const seen = new Set<string>();
  let truncated = false;
  for (const key of workload.keys(operations)) {
    if (seen.has(key)) continue;
    if (keys.length === MAX_KEYS_AFTER) {
      truncated = true;
      break;
    }
    seen.add(key);
    keys.push(key);
  }
  if (keys.length === 0) return { source: KEYS_AFTER_SOURCE, keys: [], truncated };
  assertAllowed(namespace, 'GET', [keys[0]!]);
  assertAllowed(namespace, 'TYPE', keys);
  const results = await sendPerGroup(keyspace, 'GET', keys.map((key) => [key]));
  const values: (string | null)[] = [];
  for (const [i, [error, value]] of results.entries()) {
    if (!error) values.push(value === null || value === undefined ? null : String(value));
    else if (/^WRONGTYPE/.test(error.message)) values.push(`(${String(await keyspace.keys.type(keys[i]!))})`);
    else throw error;
  }
  return { source: KEYS_AFTER_SOURCE, keys: keys.map((key, i) => ({ key, value: values[i] ?? null })), truncated };
}
