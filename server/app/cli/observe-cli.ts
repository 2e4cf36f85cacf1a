// `npm run record -- observe --listen PORT --out FILE [--commands N | --seconds S]`: opens the observing
// port, lets the user's own client or application run through it, and when the limit is reached (or on
// Ctrl+C) writes each connection as a trace document and prints its verdict lines. No browser needed.
import { dirname, basename, join } from 'node:path';
import { observedVerdicts } from '../../../trace/derive/observed-verdicts.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { openRedis } from '../../redis/open-redis.ts';
import { measureHopCost } from '../../observe/hop-cost.ts';
import { ObservingPort } from '../../observe/observing-port.ts';
import { projectVersion } from '../../support/project-root.ts';
import { CliError, REDIS_URL_FLAGS, redisUrlFrom, strictParse } from './cli-options.ts';
import { writeTraceFile } from './trace-files-node.ts';

export const OBSERVE_USAGE = `Usage: npm run record -- observe --out FILE [--listen PORT] [--host ADDRESS] [--commands N | --seconds S]
                         [--rtt-ms MS [--jitter-ms MS]] [--monitor] [--redis-url URL | --redis-url-file FILE] [--no-hop]
  Opens an observing port that forwards every connection to Redis and records it; point any client at
  redis://127.0.0.1:PORT. Stops after N commands in all, after S seconds, or on Ctrl+C, then writes each
  connection that sent a command as a trace: FILE itself for one connection, FILE with .c1, .c2 … before
  its extension for several.
  --listen PORT      the observing port (default 0: a free one, printed)
  --host ADDRESS     listen address (default 127.0.0.1; only loopback clients are relayed)
  --commands N       stop once N commands were recorded, in all connections
  --seconds S        stop after S seconds
  --rtt-ms MS        add MS of round-trip time on observed connections (half each way), --jitter-ms ± per chunk
  --no-hop           do not measure the proxy's own cost per round trip first (about a second)
  --monitor          MONITOR on the target meanwhile: each trace gets Redis's execution times (costs Redis a little)
  The target Redis is the private one unless --redis-url, --redis-url-file or $REDIS_URL names another. A
  client of a Redis with a password sends its own AUTH: it is forwarded, never recorded.`;

export interface ObserveOptions {
  out: string;
  port: number;
  host: string;
  commands: number | null;
  seconds: number | null;
  rttMs: number;
  jitterMs: number;
  hop: boolean;
  monitor: boolean;
  redisUrl: string | undefined;
}

export function parseObserveOptions(argv: string[], env: NodeJS.ProcessEnv): ObserveOptions | 'help' {
  const { values } = strictParse(argv, {
    out: { type: 'string' },
    listen: { type: 'string' },
    host: { type: 'string' },
    commands: { type: 'string' },
    seconds: { type: 'string' },
    'rtt-ms': { type: 'string' },
    'jitter-ms': { type: 'string' },
    'no-hop': { type: 'boolean' },
    monitor: { type: 'boolean' },
    ...REDIS_URL_FLAGS,
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  if (!values.out) throw new CliError('--out FILE is required');
  if (values.commands !== undefined && values.seconds !== undefined) throw new CliError('give --commands or --seconds, not both');
  const number = (flag: string, text: string | undefined, min: number, max: number, whole: boolean): number | null => {
    if (text === undefined) return null;
    const value = Number(text.replace(/_/g, ''));
    if (!/^\d[\d_]*(\.\d+)?$/.test(text.trim()) || !(value >= min && value <= max) || (whole && !Number.isInteger(value))) {
      throw new CliError(`${flag} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max.toLocaleString('en-US')}, not "${text}"`);
    }
    return value;
  };
  return {
    out: values.out,
    port: number('--listen', values.listen, 0, 65535, true) ?? 0,
    host: values.host ?? '127.0.0.1',
    commands: number('--commands', values.commands, 1, 10_000_000, true),
    seconds: number('--seconds', values.seconds, 0.1, 86_400, false),
    rttMs: number('--rtt-ms', values['rtt-ms'], 0, 10_000, false) ?? 0,
    jitterMs: number('--jitter-ms', values['jitter-ms'], 0, 10_000, false) ?? 0,
    hop: !values['no-hop'],
    monitor: values.monitor ?? false,
    redisUrl: redisUrlFrom(values, env),
  };
}

/** FILE for one trace; FILE.c1.json, FILE.c2.json … (before .json or .json.gz) for several. */
export function observedFileNames(out: string, connections: readonly number[]): string[] {
  if (connections.length === 1) return [out];
  const name = basename(out);
  const match = /^(.*?)(\.json(\.gz)?)?$/.exec(name)!;
  return connections.map((c) => join(dirname(out), `${match[1]}.c${c}${match[2] ?? '.json'}`));
}

export async function runObserve(options: ObserveOptions, say: (line: string) => void = console.log): Promise<TraceDocument[]> {
  const redis = await openRedis(options.redisUrl);
  try {
    const hop = options.hop ? await measureHopCost(redis.session.target, redis.session.info) : null;
    const port = await ObservingPort.open(() => redis.session.target, () => redis.session.info, {
      port: options.port,
      host: options.host,
      recorder: { tool: 'pipescope', version: projectVersion(), runtime: `node ${process.version}` },
    });
    port.setHopCost(hop);
    port.setDelay(options.rttMs, options.jitterMs);
    if (options.monitor) await port.setMonitor(true, redis.session.control);
    say(`Observing ${redis.description}: point your client at ${port.url}` +
      (options.rttMs || options.jitterMs ? ` (adding ${options.rttMs} ms RTT${options.jitterMs ? ` ± ${options.jitterMs} ms` : ''})` : ''));
    if (hop) say(`  the proxy's hop adds ${hop.addedUs.toFixed(1)} µs per round trip [95 % ${hop.addedLowUs.toFixed(1)}–${hop.addedHighUs.toFixed(1)}] (PING through vs around it, ${hop.pairs} pairs)`);
    say(`  recording ${options.commands ? `until ${options.commands.toLocaleString('en-US')} commands` : options.seconds ? `for ${options.seconds} s` : 'until Ctrl+C'}…`);
    await new Promise<void>((resolve) => {
      const started = Date.now();
      const timer = setInterval(() => {
        const session = port.current.summary();
        if ((options.commands && session.commands >= options.commands) || (options.seconds && Date.now() - started >= options.seconds * 1000)) done();
      }, 50);
      const done = () => {
        clearInterval(timer);
        process.off('SIGINT', done);
        process.off('SIGTERM', done);
        resolve();
      };
      process.on('SIGINT', done);
      process.on('SIGTERM', done);
    });
    // Replies (and MONITOR's lines) still on their way get a moment; then the kernel's figures, then the documents.
    await new Promise((resolve) => setTimeout(resolve, options.monitor ? 500 : 200));
    await port.readKernelNow();
    const { traces, summary } = port.restart();
    await port.close();
    if (traces.length === 0) {
      say(`No connection sent a whole command${summary.refused ? ` (${summary.refused} refused: ${summary.notes.join('; ')})` : ''}; nothing written.`);
      return [];
    }
    const files = observedFileNames(options.out, traces.map((d) => d.run.observed!.connection));
    traces.forEach((doc, i) => {
      writeTraceFile(files[i]!, doc);
      const observed = doc.run.observed!;
      say(`connection ${observed.connection} from ${observed.clientAddress}${doc.incomplete ? ` (${doc.incomplete.reason}: ${doc.incomplete.replied} of ${doc.run.n} replies)` : ''} → ${files[i]}`);
      for (const verdict of observedVerdicts(doc)) say(`  ${verdict.text} (${verdict.source})`);
    });
    for (const note of summary.notes) say(`session: ${note}`);
    return traces;
  } finally {
    await redis.close();
  }
}
