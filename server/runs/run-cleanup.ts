// After a run, whatever happened to it: its keys deleted (by name: no KEYS, no SCAN), and when it
// failed or was cancelled, first the wait until Redis has let go of its connection, and the error
// said in words (a private redis-server that stopped, a Redis that closed the connection). On a Redis
// Cluster every key command goes to the node serving its slot, one slot per UNLINK (redis/keyspace.ts).
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { assertAllowed } from '../protocol/command-guard.ts';
import type { Workload } from '../protocol/run-workload.ts';
import { neighborKey } from '../probes/neighbor-client.ts';
import { RedisConnectError } from '../redis/connect-failure.ts';
import { sendPerGroup, singleKeyspace, type Keyspace } from '../redis/keyspace.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import type { RedisTarget } from '../redis/redis-target.ts';

/**
 * Deletes the run's keys (and its warm-up's). After a failed or cancelled run, first waits until Redis
 * has let go of the run's connection (`runSource`): commands it had read but not yet run would
 * otherwise create keys after their deletion. Returns what went wrong, or undefined.
 */
export async function deleteKeys(
  session: RedisSession,
  control: Redis,
  target: RedisTarget,
  namespace: string,
  sets: (readonly [Workload, number])[],
  runSource: string | undefined,
): Promise<string | undefined> {
  // A private redis-server that stopped (or was restarted) since the run began took the run's keys with it.
  if (target.embedded && target.pid && (session.target.pid !== target.pid || !isAlive(target.pid))) return undefined;
  // A cluster's keys are wherever their slot is; a single Redis's on the control connection of the run's start.
  const keyspace = session.cluster ? session.keyspace() : singleKeyspace(control);
  try {
    if (runSource) await waitUntilClientGone(keyspace, runSource);
    for (const [workload, n] of sets) await deleteRunKeys(keyspace, namespace, workload, runSource ? await keysMade(keyspace, workload, n) : n);
    await deleteNeighborKey(keyspace, namespace);
    return undefined;
  } catch (error) {
    return `its keys (${namespace}*) could not be deleted: ${(error as Error).message}`;
  }
}

/** The neighbour client's key (probes/neighbor-client.ts), whether or not one ran: one UNLINK. */
async function deleteNeighborKey(keyspace: Keyspace, namespace: string): Promise<void> {
  const key = neighborKey(namespace);
  assertAllowed(namespace, 'UNLINK', [key]);
  await keyspace.keys.unlink(key);
}

const CLIENT_GONE_TIMEOUT_MS = 2_000;

/**
 * Polls CLIENT LIST until no client has the address `source` (at most CLIENT_GONE_TIMEOUT_MS), on every
 * node SCAN walks: the one Redis, or every master of a cluster (each knows only its own clients).
 */
export async function waitUntilClientGone(keyspace: Keyspace, source: string): Promise<void> {
  const deadline = Date.now() + CLIENT_GONE_TIMEOUT_MS;
  for (const node of keyspace.scanTargets()) {
    while (Date.now() < deadline) {
      // A node that does not answer (killed mid-run) holds no socket of ours any more: nothing to wait for there.
      const list = await node.call('CLIENT', 'LIST', 'TYPE', 'normal').then(String, () => null);
      if (list === null || !list.includes(` addr=${source} `)) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

/** Below this many written commands, every name is deleted: cheaper than bisecting, and right whatever Redis refused. */
const BISECT_ABOVE = 10_000;

/**
 * How many of the first `written` commands' keys exist once the run's connection is gone. SET makes
 * key:0, key:1, … in order on one connection, so those that exist are a prefix, found by bisection
 * with EXISTS: a run cancelled early deletes the keys Redis made, not a million names. (A prefix only
 * while Redis refuses none of them: out of memory it may take a later one after refusing earlier
 * ones, so a run that had all its replies, and a short one, delete every name instead.)
 */
async function keysMade(keyspace: Keyspace, workload: Workload, written: number): Promise<number> {
  if (workload.command !== 'SET' || written <= BISECT_ABOVE) return written;
  const key = (i: number) => workload.argsFor(i)[0] as string;
  let made = 0; // key(made - 1) exists (or made = 0)
  let missing = written; // key(missing) does not exist (or missing = written)
  while (made < missing) {
    const middle = Math.floor((made + missing) / 2);
    if ((await keyspace.keys.exists(key(middle))) === 1) made = middle + 1;
    else missing = middle;
  }
  return made;
}

/** A failed run's error, with its cause when the connection went away (Redis stopped or closed it). */
export async function explainRunFailure(error: unknown, target: RedisTarget, leftKeys: string | undefined): Promise<Error> {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as NodeJS.ErrnoException).code;
  let explained = error instanceof Error ? error : new Error(message);
  if (!(error instanceof RedisConnectError) && (/^Connection (is )?closed/.test(message) || code === 'ECONNRESET' || code === 'EPIPE')) {
    // A killed redis-server's sockets close a moment before the process is gone: give it that moment.
    for (let i = 0; i < 20 && target.embedded && target.pid && isAlive(target.pid); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    // A stopped private redis-server took the run's keys with it: nothing is left to delete.
    if (target.embedded && target.pid && !isAlive(target.pid)) return new Error(`the private redis-server (pid ${target.pid}) stopped during the run; Pipescope restarts it`);
    explained = new Error(`Redis at ${target.address} closed the run's connection (${message})`);
  }
  if (leftKeys) explained.message += `; also, ${leftKeys}`;
  return explained;
}

/** Whether the process runs (a killed one may linger a moment as a zombie: it counts as gone). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return process.platform !== 'linux';
  }
}

const DELETE_BATCH = 1000;
/**
 * UNLINKs of DELETE_BATCH keys sent at once: 16,000 keys a round trip (a million in about 63), each
 * batch built in ~30 ms, so the event loop is never held long. On a cluster a batch is one UNLINK per
 * slot its keys fall in (at most DELETE_BATCH), so at most DELETE_PIPELINE + DELETE_BATCH are in flight.
 */
const DELETE_PIPELINE = 16;

/**
 * Removes every key the run may have made, in batches, by name (no KEYS, no SCAN needed): on a single
 * Redis a pipeline of UNLINKs, on a cluster one UNLINK per slot, each to its node.
 */
export async function deleteRunKeys(keyspace: Keyspace, namespace: string, workload: Workload, n: number): Promise<void> {
  let batch: string[] = [];
  let groups: string[][] = [];
  const send = async () => {
    const sent = groups;
    groups = [];
    const failed = (await sendPerGroup(keyspace, 'UNLINK', sent)).find(([error]) => error);
    if (failed) throw failed[0]!;
  };
  const add = () => {
    assertAllowed(namespace, 'UNLINK', batch);
    groups.push(...keyspace.groups(batch));
    batch = [];
  };
  for (const key of workload.keys(n)) {
    batch.push(key);
    if (batch.length === DELETE_BATCH) {
      add();
      if (groups.length >= DELETE_PIPELINE) await send();
    }
  }
  if (batch.length > 0) add();
  await send();
}
