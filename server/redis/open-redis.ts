// Opens the Redis a process will measure: the one named by a URL, or else a private redis-server
// that Pipescope starts now, restarts if it dies (private-redis-keeper.ts) and stops on close.
import { readFileSync } from 'node:fs';
import { PrivateRedisKeeper, privateTarget } from './private-redis-keeper.ts';
import { startPrivateRedis } from './private-redis-server.ts';
import { RedisSession } from './redis-session.ts';
import { redactUrl, targetFromUrl } from './redis-target.ts';

export interface OpenedRedis {
  session: RedisSession;
  description: string;
  /** The keeper of the private redis-server; absent for a Redis given by URL. */
  keeper?: PrivateRedisKeeper;
  close(): Promise<void>;
}

export interface OpenRedisOptions {
  /** A PEM file of CA certificates to trust for rediss:// (--redis-ca), besides Node's own. */
  caFile?: string;
}

export async function openRedis(redisUrl: string | undefined, options: OpenRedisOptions = {}): Promise<OpenedRedis> {
  if (redisUrl) {
    const target = targetFromUrl(redisUrl, false, options.caFile ? readCa(options.caFile) : undefined);
    const session = await RedisSession.open(target).catch((error: Error) => {
      throw new Error(`Could not connect to ${redactUrl(redisUrl)}: ${error.message}`);
    });
    return { session, description: `Redis ${session.info.version} at ${target.address}`, close: () => session.close() };
  }
  const server = await startPrivateRedis();
  let session: RedisSession;
  try {
    session = await RedisSession.open(privateTarget(server));
  } catch (error) {
    await server.stop();
    throw error;
  }
  const keeper = new PrivateRedisKeeper(server, session);
  return {
    session,
    keeper,
    description: `private redis-server ${session.info.version} on ${server.host}:${server.port} (pid ${server.pid})`,
    close: async () => {
      await keeper.close(); // first: a restart under way must not retarget a closed session
      await session.close();
    },
  };
}

function readCa(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the CA file given with --redis-ca (${file}): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`The CA file given with --redis-ca (${file}) holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  return text;
}
