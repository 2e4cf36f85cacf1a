// Keeps Pipescope's private redis-server running (private-keeper.ts): if it ends without being asked
// (killed, crashed, out of memory), it is started again, on its old port if it is still free (else on a
// new one), and the session is pointed at it; browsers are told down with the reason, then up with
// "restarted …".
import { PrivateKeeper, type KeptService } from './private-keeper.ts';
import { startPrivateRedis, type PrivateRedis } from './private-redis-server.ts';
import type { RedisSession } from './redis-session.ts';
import { targetFromUrl, type RedisTarget } from './redis-target.ts';

export { FIRST_RESTART_DELAY_MS, MAX_RESTART_DELAY_MS, restartDelayMs } from './private-keeper.ts';

export function privateTarget(server: PrivateRedis): RedisTarget {
  return { ...targetFromUrl(`redis://${server.host}:${server.port}`, true), pid: server.pid };
}

/** "12345:M 23 Nov 2026 13:16:41.777 # " before each line redis-server logs. */
const LOG_PREFIX = /^\d+:[A-Z] \d+ \w+ \d+ [\d:.]+ [#*.-] /;

const redisServer: KeptService<PrivateRedis> = {
  /** On the old port if it is free (the URL browsers were shown stays true), else on any free port. */
  startAgain: async (previous) => {
    try {
      return await startPrivateRedis({ host: previous.host, port: previous.port });
    } catch {
      return startPrivateRedis({ host: previous.host });
    }
  },
  stop: (server) => server.stop(),
  // A server killed by a signal printed nothing about it; one that exited may have said why.
  onUnexpectedExit: (server, listener) => server.onUnexpectedExit((how, lastLine) => listener({
    what: 'The private redis-server',
    why: how.startsWith('killed') || !lastLine ? how : `${how}: ${lastLine.replace(LOG_PREFIX, '')}`,
  })),
  target: privateTarget,
  restartingWhat: 'it',
  freshOne: (server) => `one (pid ${server.pid})`,
};

export class PrivateRedisKeeper extends PrivateKeeper<PrivateRedis> {
  constructor(server: PrivateRedis, session: RedisSession) {
    super(server, session, redisServer);
  }
}
