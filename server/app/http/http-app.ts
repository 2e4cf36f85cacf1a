// The Pipescope backend as one object: Redis (private or given), the run queue, the static app, the
// runs kept for links (/stored-runs/) and the live WebSocket endpoint on one HTTP server. main.ts wraps it for the command line; tests start
// it in-process on a free port.
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { ServeOptions } from '../cli/serve-options.ts';
import { attachLiveEndpoint } from '../live/live-endpoint.ts';
import { liveSettings } from '../live/live-settings.ts';
import { gatedHandler } from '../access/http-gate.ts';
import type { LogLine } from '../access/refusal-log.ts';
import { projectRoot } from '../../support/project-root.ts';
import { openRedisTargets } from '../../redis/open-redis.ts';
import type { RedisTargets } from '../../redis/redis-targets.ts';
import { RunQueue } from '../../runs/run-queue.ts';
import { KeyJanitor } from '../../runs/key-janitor.ts';
import { takeLeasedKey } from '../../runs/leased-key.ts';
import { answerClientError } from '../access/http-gate.ts';
import { staticFileHandler } from './static-files.ts';
import { isStoredRunPath, storedRunsHandler } from './stored-runs-route.ts';
import { RecentRuns } from '../live/recent-runs.ts';
import { ObserveHub } from '../../observe/observe-hub.ts';

export interface RunningApp {
  url: string;
  redisDescription: string;
  /** The observing port's address once open (npm start -- --observe), else null. */
  observeUrl(): string | null;
  /** Its key janitor (runs/key-janitor.ts) on the Redis it started with: tests wait for its start-up walk. */
  janitor: KeyJanitor;
  /** The Redis targets it offers (redis-targets.ts): tests look at the one opened on demand. */
  targets: RedisTargets;
  close(): Promise<void>;
}

/** `log`: where refused requests are reported (default: stderr, at most one line per kind per 10 s). */
export async function startApp(options: ServeOptions, log?: LogLine): Promise<RunningApp> {
  const targets = await openRedisTargets(options.redisUrl, { caFile: options.redisCa, ...(options.cluster ? { cluster: options.cluster } : {}) });
  const redis = targets.primary;
  const queue = new RunQueue();
  const settings = liveSettings(options, log);
  // The runs kept for links (Copy link): in memory, bounded, read-only at /stored-runs/<id>.
  const recent = new RecentRuns();
  const staticFiles = staticFileHandler(join(projectRoot(), 'dist', 'web'));
  const storedRuns = storedRunsHandler(recent, settings.policy, settings.log);
  const http = createServer(gatedHandler(settings.policy, settings.headers, settings.log, (request, response) =>
    (isStoredRunPath(request.url) ? storedRuns : staticFiles)(request, response)));
  // Node answers a request it cannot parse (400, 431) by itself, without our headers: we answer instead.
  http.on('clientError', (error, socket) => answerClientError(error, socket, settings.headers));
  const observe = new ObserveHub(redis.session, {
    port: options.observe?.port ?? null,
    ...(options.observe?.host ? { host: options.observe.host } : {}),
    ...(options.observe?.allowRemote ? { allowRemote: true } : {}),
    leasedKey: () => takeLeasedKey(redis.session),
  });
  const wss = attachLiveEndpoint(http, targets, queue, settings, observe, recent);
  // Keys of runs whose process died (kill -9) on this Redis: deleted now and whenever their lease runs out;
  // on a target opened later (the other private one), from when it is ready.
  const janitor = new KeyJanitor(() => redis.session.keyspace(), log);
  janitor.start();
  const laterJanitors: KeyJanitor[] = [];
  targets.onChange((change) => {
    if (change.phase !== 'ready' || !change.opened) return;
    const session = change.opened.session;
    const later = new KeyJanitor(() => session.keyspace(), log);
    laterJanitors.push(later);
    later.start();
  });
  const stopJanitors = async () => {
    await janitor.stop();
    await Promise.all(laterJanitors.map((later) => later.stop()));
  };
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port, options.host, resolve);
    });
  } catch (error) {
    await stopJanitors();
    await targets.close();
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot listen on ${options.host}:${options.port}: ${code === 'EADDRINUSE' ? 'the port is in use (choose another with --port or PORT)' : (error as Error).message}`);
  }
  if (options.observe?.openAtStart) {
    try {
      await observe.open();
    } catch (error) {
      await observe.shutdown();
      http.close();
      await stopJanitors();
      await targets.close();
      throw error;
    }
  }
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/`,
    redisDescription: redis.description,
    observeUrl: () => observe.url,
    janitor,
    targets,
    close: async () => {
      await observe.shutdown();
      for (const client of wss.clients) client.terminate();
      wss.close();
      const closed = new Promise((resolve) => http.close(resolve));
      // Keep-alive and in-flight HTTP connections would otherwise hold the shutdown open.
      http.closeAllConnections();
      await closed;
      await stopJanitors();
      await targets.close();
    },
  };
}
