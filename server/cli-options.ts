// Command-line flags of `npm start` and `npm run record`, parsed strictly (unknown flags are errors)
// and validated with the same schemas as the WebSocket messages. Bad flags: one clear message, exit 2.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { RunSpecSchema } from '../trace/run-request.ts';
import { RunModeSchema, type RunMode } from '../trace/trace-format.ts';

export class CliError extends Error {
  override name = 'CliError';
}

export const DEFAULT_PORT = 7380;

/** Runs a flag parser the way both programs want it: help → usage and exit 0, bad flags → message, usage, exit 2. */
export function optionsOrExit<T>(program: string, usage: string, parse: () => T | 'help'): T {
  let options: T | 'help';
  try {
    options = parse();
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    console.error(`${program}: ${error.message}\n${usage}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(usage);
    process.exit(0);
  }
  return options;
}

export interface ServeOptions {
  port: number;
  host: string;
  redisUrl: string | undefined;
}

export const SERVE_USAGE = `Usage: npm start -- [--port N] [--host ADDRESS] [--redis-url redis://[user:pass@]host:port]
  --port       HTTP port (default: $PORT or ${DEFAULT_PORT}; 0 picks a free one)
  --host       address to listen on (default: $HOST or 127.0.0.1)
  --redis-url  use this Redis instead of a private redis-server (default: $REDIS_URL); rediss:// for TLS`;

const PortSchema = z.coerce.number({ error: '--port must be a number' }).int('--port must be a whole number').min(0, '--port must be 0..65535').max(65535, '--port must be 0..65535');

export function parseServeOptions(argv: string[], env: NodeJS.ProcessEnv): ServeOptions | 'help' {
  const { values } = strictParse(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    'redis-url': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  // An empty environment variable counts as unset; an empty flag is a mistake worth naming.
  if (values.port !== undefined && values.port.trim() === '') throw new CliError('--port must be a number');
  const port = PortSchema.safeParse(values.port ?? (env['PORT'] || undefined) ?? DEFAULT_PORT);
  if (!port.success) throw new CliError(port.error.issues[0]!.message);
  if (values.host !== undefined && values.host.trim() === '') throw new CliError('--host must not be empty');
  const host = values.host ?? (env['HOST'] || undefined) ?? '127.0.0.1';
  return { port: port.data, host, redisUrl: values['redis-url'] ?? (env['REDIS_URL'] || undefined) };
}

export interface RecordOptions {
  mode: RunMode;
  spec: Pick<z.infer<typeof RunSpecSchema>, 'command' | 'n' | 'valueBytes' | 'rttMs' | 'jitterMs' | 'serverTrace' | 'engine'>;
  redisUrl: string | undefined;
  out: string;
}

export const RECORD_USAGE = `Usage: npm run record -- --mode sequential|pipeline --command PING|INCR|SET|GET --n N --out FILE
                         [--value-bytes B] [--rtt-ms MS] [--jitter-ms MS] [--engine E] [--server-trace] [--redis-url redis://host:port]
  --rtt-ms, --jitter-ms  add round-trip time (and ± jitter per chunk) with Pipescope's TCP delay proxy
  --engine ioredis|raw   who writes the commands (raw: a plain socket; PING as inline "PING\\r\\n")
  --server-trace         also trace the Redis side: MONITOR execution times, strace syscalls (slows Redis)
  Records one run into a trace document (JSON). Uses a private redis-server unless --redis-url (or $REDIS_URL) is given.`;

export function parseRecordOptions(argv: string[], env: NodeJS.ProcessEnv): RecordOptions | 'help' {
  const { values } = strictParse(argv, {
    mode: { type: 'string' },
    command: { type: 'string' },
    n: { type: 'string' },
    'value-bytes': { type: 'string' },
    'rtt-ms': { type: 'string' },
    'jitter-ms': { type: 'string' },
    'server-trace': { type: 'boolean' },
    engine: { type: 'string' },
    'redis-url': { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  for (const required of ['mode', 'command', 'n', 'out'] as const) {
    if (values[required] === undefined) throw new CliError(`--${required} is required`);
  }
  const mode = RunModeSchema.safeParse(values.mode);
  if (!mode.success) throw new CliError(`--mode must be sequential or pipeline, not "${values.mode}"`);
  const spec = RunSpecSchema.safeParse({
    command: values.command?.toUpperCase(),
    n: numberFlag(values.n),
    valueBytes: numberFlag(values['value-bytes']),
    rttMs: numberFlag(values['rtt-ms']),
    jitterMs: numberFlag(values['jitter-ms']),
    serverTrace: values['server-trace'] ?? false,
    engine: values.engine,
    modes: [mode.data],
  });
  if (!spec.success) {
    const issue = spec.error.issues[0]!;
    const flag = FLAG_FOR_FIELD[String(issue.path[0])] ?? '--n';
    throw new CliError(flag === '--command' ? `--command must be one of PING, INCR, SET, GET, not "${values.command}"` : `${flag}: ${issue.message}`);
  }
  return { mode: mode.data, spec: spec.data, redisUrl: values['redis-url'] ?? (env['REDIS_URL'] || undefined), out: values.out! };
}

const FLAG_FOR_FIELD: Record<string, string> = {
  command: '--command', n: '--n', valueBytes: '--value-bytes', rttMs: '--rtt-ms', jitterMs: '--jitter-ms', engine: '--engine',
};

/** A number as typed ("10000", "10_000", "0.5"); NaN (refused by the schema) for anything else. */
function numberFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const cleaned = text.replace(/_/g, '');
  return /^-?\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

type FlagSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

function strictParse<T extends FlagSpec>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  } catch (error) {
    throw new CliError((error as Error).message.replace(/^.*?: /, '').replace(/\. To specify.*$/, ''));
  }
}
