// One key of a run namespace with its lease, for work that writes a key outside a measured run: the
// Observe tab's real-client buttons (redis-py's INCRs). The lease (run-lease.ts) is taken before the
// key is handed out, so if this process dies while a client writes it, a key janitor deletes the key
// as it deletes any dead run's (key-janitor.ts); release() after the key is deleted.
import type { RedisSession } from '../redis/redis-session.ts';
import { namespaceFor } from '../protocol/command-guard.ts';
import { newRunId } from './run-id.ts';
import { RunLease } from './run-lease.ts';
import { refuseOnCluster } from './cluster-refusal.ts';

export interface LeasedKey {
  /** `pipescope:<run id>:counter`: a run key (command-guard.ts RUN_KEY). */
  key: string;
  /** `deleted`: the key is gone (the lease goes too); otherwise the lease is left to expire and a janitor deletes the key. */
  release(deleted: boolean): Promise<void>;
}

export async function takeLeasedKey(session: RedisSession): Promise<LeasedKey> {
  refuseOnCluster(session, 'a real client\'s writes');
  const lease = await RunLease.take(session.keyspace(), newRunId());
  return { key: `${namespaceFor(lease.runId)}counter`, release: (deleted) => lease.release(deleted) };
}
