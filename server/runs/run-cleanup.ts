// After a run, whatever happened to it: its keys deleted (by name: no KEYS, no SCAN), and when it
// failed or was cancelled, first the wait until Redis has let go of its connection, and the error
// said in words (a private redis-server that stopped, a Redis that closed the connection).
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { assertAllowed } from '../protocol/command-guard.ts';
import type { Workload } from '../protocol/run-workload.ts';
import { neighborKey } from '../probes/neighbor-client.ts';
import { RedisConnectError } from '../redis/connect-failure.ts';
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
  try {
    if (runSource) await waitUntilClientGone(control, runSource);
    for (const [workload, n] of sets) await deleteRunKeys(control, namespace, workload, runSource ? await keysMade(control, workload, n) : n);
    await deleteNeighborKey(control, namespace);
    return undefined;
  } catch (error) {
    return `its keys (${namespace}*) could not be deleted: ${(error as Error).message}`;
  }
}

/** The neighbour client's key (probes/neighbor-client.ts), whether or not one ran: one UNLINK. */
async function deleteNeighborKey(control: Redis, namespace: string): Promise<void> {
  const key = neighborKey(namespace);
  assertAllowed(namespace, 'UNLINK', [key]);
  await control.unlink(key);
}

const CLIENT_GONE_TIMEOUT_MS = 2_000;

/** Polls CLIENT LIST until no client has the address `source` (at most CLIENT_GONE_TIMEOUT_MS). */
async function waitUntilClientGone(control: Redis, source: string): Promise<void> {
  const deadline = Date.now() + CLIENT_GONE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const list = String(await control.call('CLIENT', 'LIST', 'TYPE', 'normal'));
    if (!list.includes(` addr=${source} `)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
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
async function keysMade(control: Redis, workload: Workload, written: number): Promise<number> {
  if (workload.command !== 'SET' || written <= BISECT_ABOVE) return written;
  const key = (i: number) => workload.argsFor(i)[0] as string;
  let made = 0; // key(made - 1) exists (or made = 0)
  let missing = written; // key(missing) does not exist (or missing = written)
  while (made < missing) {
    const middle = Math.floor((made + missing) / 2);
    if ((await control.exists(key(middle))) === 1) made = middle + 1;
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
 * batch built in ~30 ms, so the event loop is never held long.
 */
const DELETE_PIPELINE = 16;

/** Removes every key the run may have made, in batches, by name (no KEYS, no SCAN needed). */
export async function deleteRunKeys(control: Redis, namespace: string, workload: Workload, n: number): Promise<void> {
  let batch: string[] = [];
  let pipeline = control.pipeline();
  const send = async () => {
    if (pipeline.length === 0) return;
    const results = await pipeline.exec();
    pipeline = control.pipeline();
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
  };
  const add = () => {
    assertAllowed(namespace, 'UNLINK', batch);
    pipeline.unlink(...batch);
    batch = [];
  };
  for (const key of workload.keys(n)) {
    batch.push(key);
    if (batch.length === DELETE_BATCH) {
      add();
      if (pipeline.length === DELETE_PIPELINE) await send();
    }
  }
  if (batch.length > 0) add();
  await send();
}
