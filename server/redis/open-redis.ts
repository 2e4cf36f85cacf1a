// Opens the Redis a process will measure: the one named by a URL, or else a private redis-server
// that Pipescope starts now and stops on close.
import { startPrivateRedis } from './private-redis-server.ts';
import { RedisSession } from './redis-session.ts';
import { redactUrl, targetFromUrl } from './redis-target.ts';

export interface OpenedRedis {
  session: RedisSession;
  description: string;
  close(): Promise<void>;
}

export async function openRedis(redisUrl: string | undefined): Promise<OpenedRedis> {
  if (redisUrl) {
    const target = targetFromUrl(redisUrl);
    const session = await RedisSession.open(target).catch((error: Error) => {
      throw new Error(`Could not connect to ${redactUrl(redisUrl)}: ${error.message}`);
    });
    return { session, description: `Redis ${session.info.version} at ${target.address}`, close: () => session.close() };
  }
  const server = await startPrivateRedis();
  try {
    const session = await RedisSession.open({ ...targetFromUrl(`redis://${server.host}:${server.port}`, true), pid: server.pid });
    return {
      session,
      description: `private redis-server ${session.info.version} on ${server.host}:${server.port} (pid ${server.pid})`,
      close: async () => {
        await session.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
