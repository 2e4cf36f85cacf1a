// `npm start`: starts (or connects to) Redis, serves the built app and the live WebSocket endpoint,
// prints the URL, and shuts everything down cleanly on SIGINT/SIGTERM (the private Redis too).
import { startApp } from './http/http-app.ts';
import { optionsOrExit } from './cli/cli-options.ts';
import { SERVE_USAGE, parseServeOptions } from './cli/serve-options.ts';
import { secretRedactor } from './access/secret-redactor.ts';

const options = optionsOrExit('pipescope', SERVE_USAGE, () => parseServeOptions(process.argv.slice(2), process.env));

async function main(): Promise<void> {
  const app = await startApp(options);
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // A clean close takes milliseconds; never let a stuck connection keep the process (and Redis) alive.
    setTimeout(() => process.exit(code), 5_000).unref();
    await app.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(130));
  process.on('SIGTERM', () => void shutdown(143));
  console.log(`Pipescope is running at ${app.url}`);
  console.log(`Measuring ${app.redisDescription}. Press Ctrl+C to stop.`);
  const observing = app.observeUrl();
  if (observing) console.log(`Observing port open: point your client or app at ${observing} and watch it in the page's Observe tab.`);
}

main().catch((error: Error) => {
  // The message may quote what Redis or the OS said about the URL: never print its password.
  console.error(`pipescope: ${secretRedactor(options.redisUrl)(error.message)}`);
  process.exit(1);
});
