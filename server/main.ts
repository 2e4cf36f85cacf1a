// `npm start`: starts (or connects to) Redis, serves the built app and the live WebSocket endpoint,
// prints the URL, and shuts everything down cleanly on SIGINT/SIGTERM.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { CliError, SERVE_USAGE, parseServeOptions } from './cli-options.ts';
import { attachLiveEndpoint } from './live-endpoint.ts';
import { projectRoot } from './project-root.ts';
import { openRedis } from './redis-choice.ts';
import { RunQueue } from './run-queue.ts';
import { staticFileHandler } from './static-files.ts';

async function main(): Promise<void> {
  let options;
  try {
    options = parseServeOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    console.error(`pipescope: ${error.message}\n${SERVE_USAGE}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(SERVE_USAGE);
    return;
  }
  const redis = await openRedis(options.redisUrl);
  const queue = new RunQueue();
  const http = createServer(staticFileHandler(join(projectRoot(), 'dist', 'web')));
  const wss = attachLiveEndpoint(http, redis.session, queue);

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const client of wss.clients) client.terminate();
    wss.close();
    http.close();
    await redis.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(130));
  process.on('SIGTERM', () => void shutdown(143));

  http.once('error', async (error: NodeJS.ErrnoException) => {
    console.error(`pipescope: cannot listen on ${options.host}:${options.port}: ${error.code === 'EADDRINUSE' ? 'the port is in use (choose another with --port or PORT)' : error.message}`);
    await redis.close();
    process.exit(1);
  });
  http.listen(options.port, options.host, () => {
    const address = http.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
    console.log(`Pipescope is running at http://${shownHost}:${port}/`);
    console.log(`Measuring ${redis.description}. Press Ctrl+C to stop.`);
  });
}

main().catch((error: Error) => {
  console.error(`pipescope: ${error.message}`);
  process.exit(1);
});
