// Command-line flags of `npm run record` (and what `npm start`'s serve-options.ts shares with it),
// parsed strictly (unknown flags are errors) and validated with the same schemas as the WebSocket
// messages. Bad flags: one clear message, exit 2.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { RunSpecSchema, UNTIL_CERTAIN } from '../../../trace/format/run-request.ts';
import { SweepSpecSchema, powersOfTwoUpTo, type SweepSpec } from '../../../trace/format/sweep-format.ts';
import { COMMAND_NAMES, RUN_MODES, RunModeSchema, type RunMode } from '../../../trace/format/trace-format.ts';

export class CliError extends Error {
  override name = 'CliError';
}

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

/** Replicas per master the private cluster may have (each is a redis-server of its own). */
export const MAX_CLUSTER_REPLICAS = 2;

export const CLUSTER_USAGE = `  --cluster              start a private Redis Cluster (3 masters on free loopback ports) instead of the private
                         redis-server; not with --redis-url (a URL naming any node of a cluster is recognised as one)
  --cluster-replicas N   with --cluster: N replicas per master (0..${MAX_CLUSTER_REPLICAS}, default 0)`;

export interface RecordOptions {
  /** The modes to run, in rounds (several: compared, with a verdict). */
  modes: RunMode[];
  spec: Pick<z.infer<typeof RunSpecSchema>, 'command' | 'n' | 'valueBytes' | 'rttMs' | 'jitterMs' | 'serverTrace' | 'monitor' | 'strace' | 'engine' | 'chunk' | 'memory' | 'cold' | 'repeats' | 'kernelTcp'
    | 'chunkPauseMs' | 'errorAt' | 'errorKind' | 'neighborRate' | 'neighborCommand' | 'heldConnection' | 'clusterKeys' | 'clusterSplit' | 'reshard' | 'modes'>;
  redisUrl: string | undefined;
  /** --cluster: a private Redis Cluster with this many replicas per master. */
  cluster?: { replicas: number } | undefined;
  out: string;
  /** Several modes: write every run (NAME-MODE-rK.json), not only each mode's median one. */
  everyRepeat: boolean;
}

export const RECORD_USAGE = `Usage: npm run record -- --mode M[,M…] --command PING|INCR|SET|GET|GET-COMPUTE-SET --n N --out FILE
                         [--chunk C] [--chunk-pause-ms MS] [--value-bytes B] [--rtt-ms MS] [--jitter-ms MS] [--engine E]
                         [--error-at K] [--error-kind runtime|queueing]
                         [--monitor] [--strace] [--server-trace] [--cold] [--repeats K|until-certain] [--every-repeat] [--memory | --no-memory]
                         [--neighbor-rate R [--neighbor-command INCR|GET]] [--held-connection]
                         [--keys spread|hashtag] [--split parallel|serial] [--compare keys|split] [--reshard]
                         [--redis-url redis://host:port | --redis-url-file FILE | --cluster [--cluster-replicas N]]
       npm run record -- sweep --out FILE [--depths 1,2,4,…,1024 | --max-depth D] [--per-point M] [--repeats K]
                         [--command C] [--value-bytes B] [--engine E] [--rtt-ms MS] [--jitter-ms MS] [--reference]
       npm run record -- compact IN [OUT]
       npm run record -- export FILE --format mermaid|flow|csv [--out OUT]   (a saved trace or sweep as text; see export --help)
       npm run record -- observe --out FILE [--listen PORT] [--commands N | --seconds S]   (your own client, observed; see observe --help)
  --out FILE             FILE.json: plain JSON. FILE.json.gz: the form to serve on the web, the compact encoding
                         of the same trace, gzipped (a 100,000-command pipeline: ~2 kB instead of 6.6 MB)
  --mode M               sequential, pipeline, chunked, or how else to batch: multi (MULTI, the N commands, EXEC),
                         eval (one EVAL doing the N operations in Lua), evalsha (SCRIPT LOAD before t0, then N
                         EVALSHA in one pipeline), multikey (one MSET for SET, one MGET for GET), auto (N calls in
                         one tick, the client library batching them: ioredis enableAutoPipelining, node-redis).
                         Several, comma-separated (--mode sequential,pipeline): run in rounds, the order
                         alternating, and compared: the median of the per-round ratios with its 95 % interval
                         (docs/verdicts.md); each mode's median run is written to FILE with -MODE before .json
  --command GET-COMPUTE-SET  GET a key, compute value × 2 + 1, SET it: a dependent step (sequential or eval only)
  --chunk C              N commands in pipelines of C, each pipeline's replies awaited (--mode pipeline becomes chunked)
  --chunk-pause-ms MS    chunked: sleep MS between one pipeline's last reply and the next (counted in the run's time)
  --error-at K           INCR only: operation K (from 0) fails; one counter per operation, read back after the run
  --error-kind KIND      runtime (default: K's key holds a non-integer, INCR fails when run) or queueing (K is sent
                         without its key: Redis refuses it unrun; inside MULTI, EXEC then aborts: EXECABORT)
  --rtt-ms, --jitter-ms  add round-trip time (and ± jitter per chunk) with Pipescope's TCP delay proxy
  --engine E             who writes the commands: ioredis (default), node-redis, or raw (a plain socket; PING as inline "PING\\r\\n")
  --monitor              trace the Redis side with MONITOR: execution order and times (cheap)
  --strace               trace redis-server's read()/write() calls with strace (slows Redis several-fold)
  --server-trace         both --monitor and --strace
  --cold                 no warm-up: the run's first command pays the connection's first-call costs
  --repeats K            run K rounds (a run of a second or more is not repeated); prints median [min–max]
                         and writes the median run (by total time) to FILE. Default 1 for one mode
  --repeats until-certain  several modes: rounds until every mode's 95 % interval against the fastest
                         excludes 1 at a checkpoint (10, 15, 20, 30 rounds), at most 40; the default for several modes
  --every-repeat         several modes: write every run as FILE-MODE-rK.json (K the round, from 0), for the web
                         to read the same verdict
  --memory               sample memory (Redis CLIENT LIST / INFO memory, this process) during the run; its time then
                         includes the sampler (the trace's probeCosts says so). Without either flag: only runs that can
                         move memory (10,000 operations or more, 1 MiB of values or more, or chunked)
  --no-memory            never sample memory
  --no-kernel-tcp        no kernel TCP figures (ss before and after the run); off by default with --cluster,
                         where runs are split by node and the probe is not taken per node yet
  --neighbor-rate R      a neighbour client on its own connection sends R commands per second (one at a time)
                         from before t0 to the run's end: its latency, and with --monitor, how many of its
                         commands ran inside the run
  --neighbor-command C   what the neighbour sends: INCR (default) or GET (of a value of --value-bytes)
  --held-connection      one PING behind the run on its own connection, one beside it on a second connection
  --keys hashtag         a cluster only: every key of the run under one {hash tag}, so all share one slot and one node
                         (default spread: each key its own slot, over every master)
  --split serial         a cluster only, the raw engine's pipeline: one node's share after another, each awaited
                         (default parallel: every node's share written at once)
  --reshard              with --cluster, GET or SET, the raw engine's sequential or pipeline: move one slot of the
                         run's keys to another master during the run (ASK, then MOVED), each answer checked
                         against the value stored; the slot moved back after the run
  --compare keys|split   a cluster only: both variants side by side, each mode once per variant in every round
                         (keys: spread and under one hash tag; split: the raw pipeline parallel and serial)
  sweep                  throughput against pipeline depth, untraced: at each depth, K runs of M commands in
                         pipelines of that depth (defaults: depths 1…1024 doubling, M 10000, K 3, PING);
                         --reference also runs redis-benchmark -c 1 -P depth at each depth
  compact                converts a trace file (plain or compact, gzipped or not; e.g. one exported from the app)
                         to OUT (default: IN's name ending .json.gz) in the served form; prints the sizes of each form
${CLUSTER_USAGE}
  Records into a JSON document (a trace; for sweep, a sweep document). Uses a private redis-server unless
  --redis-url, --redis-url-file (the URL on its first line; keeps a password out of \`ps\`) or $REDIS_URL is given.`;

export function parseRecordOptions(argv: string[], env: NodeJS.ProcessEnv): RecordOptions | 'help' {
  const { values } = strictParse(argv, {
    mode: { type: 'string' },
    command: { type: 'string' },
    n: { type: 'string' },
    'value-bytes': { type: 'string' },
    'rtt-ms': { type: 'string' },
    'jitter-ms': { type: 'string' },
    'server-trace': { type: 'boolean' },
    monitor: { type: 'boolean' },
    strace: { type: 'boolean' },
    cold: { type: 'boolean' },
    repeats: { type: 'string' },
    'every-repeat': { type: 'boolean' },
    engine: { type: 'string' },
    chunk: { type: 'string' },
    'chunk-pause-ms': { type: 'string' },
    'error-at': { type: 'string' },
    'error-kind': { type: 'string' },
    memory: { type: 'boolean' },
    'no-memory': { type: 'boolean' },
    'no-kernel-tcp': { type: 'boolean' },
    'neighbor-rate': { type: 'string' },
    'neighbor-command': { type: 'string' },
    'held-connection': { type: 'boolean' },
    keys: { type: 'string' },
    split: { type: 'string' },
    reshard: { type: 'boolean' },
    compare: { type: 'string' },
    ...REDIS_URL_FLAGS,
    ...CLUSTER_FLAGS,
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  if (values['neighbor-command'] !== undefined && values['neighbor-rate'] === undefined) throw new CliError('--neighbor-command needs --neighbor-rate R (commands per second)');
  for (const required of ['mode', 'command', 'n', 'out'] as const) {
    if (values[required] === undefined) throw new CliError(`--${required} is required`);
  }
  const modes = parseModeList(values.mode!);
  const single = modes.length === 1;
  if (values.chunk !== undefined && !modes.includes('chunked') && !(single && modes[0] === 'pipeline')) {
    throw new CliError(single ? '--chunk is for pipelines: use --mode pipeline or chunked' : '--chunk is the chunked mode\'s: add chunked to --mode');
  }
  if (values['error-kind'] !== undefined && values['error-at'] === undefined) throw new CliError('--error-kind says how operation K fails: give --error-at K too');
  if (modes.includes('chunked') && values.chunk === undefined) throw new CliError('--mode chunked needs --chunk C (commands per pipeline)');
  if (values['every-repeat'] && single) throw new CliError('--every-repeat is for several modes (--mode sequential,pipeline): one mode writes its median run');
  // "--mode pipeline --chunk C" is how people say it: N commands in pipelines of C.
  if (single && values.chunk !== undefined) modes[0] = 'chunked';
  const spec = RunSpecSchema.safeParse({
    command: values.command?.toUpperCase(),
    n: numberFlag(values.n),
    valueBytes: numberFlag(values['value-bytes']),
    rttMs: numberFlag(values['rtt-ms']),
    jitterMs: numberFlag(values['jitter-ms']),
    serverTrace: values['server-trace'] ?? false,
    monitor: values.monitor ?? false,
    strace: values.strace ?? false,
    cold: values.cold ?? false,
    repeats: values.repeats === undefined ? (single ? 1 : UNTIL_CERTAIN) : values.repeats === UNTIL_CERTAIN ? UNTIL_CERTAIN : numberFlag(values.repeats),
    engine: values.engine,
    ...(values.chunk !== undefined ? { chunk: numberFlag(values.chunk) } : {}),
    chunkPauseMs: numberFlag(values['chunk-pause-ms']),
    errorAt: numberFlag(values['error-at']),
    errorKind: values['error-kind'],
    ...(values.memory ? { memory: true } : values['no-memory'] ? { memory: false } : {}),
    ...(values['no-kernel-tcp'] || values.cluster ? { kernelTcp: false } : {}),
    neighborRate: numberFlag(values['neighbor-rate']),
    neighborCommand: values['neighbor-command']?.toUpperCase(),
    heldConnection: values['held-connection'] ?? false,
    ...(values.keys !== undefined ? { clusterKeys: values.keys } : {}),
    ...(values.split !== undefined ? { clusterSplit: values.split } : {}),
    ...(values.reshard ? { reshard: true } : {}),
    ...(values.compare !== undefined ? { clusterCompare: values.compare } : {}),
    modes,
  });
  if (!spec.success) throw specError(spec.error, values.command);
  const redisUrl = redisUrlFrom(values, env);
  return { modes, spec: spec.data, redisUrl, cluster: clusterFrom(values, redisUrl), out: values.out!, everyRepeat: values['every-repeat'] ?? false };
}

/** "sequential,pipeline" → the modes, each once, each one Pipescope runs. */
function parseModeList(text: string): RunMode[] {
  const modes: RunMode[] = [];
  for (const item of text.split(',').map((m) => m.trim())) {
    const parsed = RunModeSchema.safeParse(item);
    if (!parsed.success) throw new CliError(`--mode must be one of ${RUN_MODES.join(', ')}, not "${item}"`);
    if (modes.includes(parsed.data)) throw new CliError(`--mode names ${item} twice`);
    modes.push(parsed.data);
  }
  return modes;
}

export interface SweepOptions {
  spec: SweepSpec;
  redisUrl: string | undefined;
  cluster?: { replicas: number } | undefined;
  out: string;
}

export const DEFAULT_SWEEP_MAX_DEPTH = 1024;

/** `record sweep …` (the arguments after "sweep"). */
export function parseSweepOptions(argv: string[], env: NodeJS.ProcessEnv): SweepOptions | 'help' {
  const { values } = strictParse(argv, {
    depths: { type: 'string' },
    'max-depth': { type: 'string' },
    'per-point': { type: 'string' },
    repeats: { type: 'string' },
    command: { type: 'string' },
    'value-bytes': { type: 'string' },
    engine: { type: 'string' },
    'rtt-ms': { type: 'string' },
    'jitter-ms': { type: 'string' },
    reference: { type: 'boolean' },
    ...REDIS_URL_FLAGS,
    ...CLUSTER_FLAGS,
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  if (values.out === undefined) throw new CliError('--out is required');
  if (values.depths !== undefined && values['max-depth'] !== undefined) throw new CliError('give --depths or --max-depth, not both');
  let depths: number[];
  if (values.depths !== undefined) depths = parseDepthList(values.depths);
  else {
    const max = numberFlag(values['max-depth']) ?? DEFAULT_SWEEP_MAX_DEPTH;
    if (!Number.isInteger(max) || max < 1) throw new CliError('--max-depth must be a whole number of at least 1');
    depths = powersOfTwoUpTo(max);
  }
  const spec = SweepSpecSchema.safeParse({
    command: (values.command ?? 'PING').toUpperCase(),
    valueBytes: numberFlag(values['value-bytes']),
    depths,
    perPoint: numberFlag(values['per-point']),
    repeats: numberFlag(values.repeats),
    engine: values.engine,
    rttMs: numberFlag(values['rtt-ms']),
    jitterMs: numberFlag(values['jitter-ms']),
    reference: values.reference ?? false,
  });
  if (!spec.success) throw specError(spec.error, values.command);
  const redisUrl = redisUrlFrom(values, env);
  return { spec: spec.data, redisUrl, cluster: clusterFrom(values, redisUrl), out: values.out };
}

export interface CompactOptions {
  input: string;
  out: string;
}

/** `record compact IN [OUT]` (the arguments after "compact"). */
export function parseCompactOptions(argv: string[]): CompactOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliError((error as Error).message.replace(/^.*?: /, '').replace(/\. To specify.*$/, ''));
  }
  if (parsed.values.help) return 'help';
  const [input, given, ...extra] = parsed.positionals;
  if (input === undefined) throw new CliError('compact needs the trace file to convert: compact IN [OUT]');
  if (extra.length > 0) throw new CliError(`compact takes IN and OUT, not also "${extra.join(' ')}"`);
  const out = given ?? `${input.replace(/\.json(\.gz)?$|\.gz$/, '')}.json.gz`;
  if (out === input) throw new CliError(`compact would overwrite ${input}: give OUT, e.g. compact ${input} ${input.replace(/\.json\.gz$/, '')}.compact.json.gz`);
  return { input, out };
}

/**
 * "1,2,4,8" as given; "1,2,4,…,1024" (or "...") continues the doubling up to the number after the
 * ellipsis, as the docs write it.
 */
export function parseDepthList(text: string): number[] {
  const items = text.split(',').map((item) => item.trim());
  const depths: number[] = [];
  for (const [i, item] of items.entries()) {
    if (item === '…' || item === '...') {
      const last = depths.at(-1);
      const next = numberFlag(items[i + 1]);
      if (last === undefined || next === undefined || !Number.isInteger(next)) throw new CliError('--depths: "…" must stand between two depths, as in 1,2,4,…,1024');
      for (let d = last * 2; d < next; d *= 2) depths.push(d);
      continue;
    }
    const depth = numberFlag(item);
    if (depth === undefined || !Number.isInteger(depth) || depth < 1) throw new CliError(`--depths: "${item}" is not a whole number of at least 1`);
    depths.push(depth);
  }
  return depths;
}

function specError(error: z.ZodError, command: string | undefined): CliError {
  const issue = error.issues[0]!;
  const flag = FLAG_FOR_FIELD[String(issue.path[0])] ?? '--n';
  return new CliError(flag === '--command' ? `--command must be one of ${COMMAND_NAMES.join(', ')}, not "${command}"` : `${flag}: ${issue.message}`);
}

const FLAG_FOR_FIELD: Record<string, string> = {
  command: '--command', n: '--n', valueBytes: '--value-bytes', rttMs: '--rtt-ms', jitterMs: '--jitter-ms', engine: '--engine',
  chunk: '--chunk', depths: '--depths', perPoint: '--per-point', repeats: '--repeats',
  chunkPauseMs: '--chunk-pause-ms', errorAt: '--error-at', errorKind: '--error-kind', modes: '--mode',
  neighborRate: '--neighbor-rate', neighborCommand: '--neighbor-command',
};

/** A number as typed ("10000", "10_000", "0.5"); NaN (refused by the schema) for anything else. */
function numberFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const cleaned = text.replace(/_/g, '');
  return /^-?\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

/** A private Redis Cluster instead of the private redis-server: --cluster [--cluster-replicas N]. */
export const CLUSTER_FLAGS = {
  cluster: { type: 'boolean' },
  'cluster-replicas': { type: 'string' },
} as const;

/** --cluster and --cluster-replicas, checked against the Redis URL (`url`): the private cluster's shape, or undefined. */
export function clusterFrom(values: { cluster?: unknown; 'cluster-replicas'?: unknown }, url: string | undefined): { replicas: number } | undefined {
  const replicasText = values['cluster-replicas'] as string | undefined;
  if (!values.cluster) {
    if (replicasText !== undefined) throw new CliError('--cluster-replicas is for the private cluster: give --cluster too');
    return undefined;
  }
  if (url) throw new CliError('--cluster starts a private Redis Cluster; a Redis URL (--redis-url, --redis-url-file or $REDIS_URL) names your own: give one or the other');
  const replicas = replicasText === undefined ? 0 : Number(replicasText);
  if (!/^\d+$/.test(replicasText ?? '0') || replicas > MAX_CLUSTER_REPLICAS) throw new CliError(`--cluster-replicas must be a whole number from 0 to ${MAX_CLUSTER_REPLICAS}, not "${replicasText}"`);
  return { replicas };
}

/** The two ways to name a Redis on the command line; $REDIS_URL is the third. */
export const REDIS_URL_FLAGS = {
  'redis-url': { type: 'string' },
  'redis-url-file': { type: 'string' },
} as const;

/**
 * --redis-url, or the first line of --redis-url-file, or $REDIS_URL (empty = unset). A password given
 * as --redis-url is visible to every user of the machine in `ps`; a file or the environment is not.
 */
export function redisUrlFrom(values: { 'redis-url'?: unknown; 'redis-url-file'?: unknown }, env: NodeJS.ProcessEnv): string | undefined {
  const flag = values['redis-url'] as string | undefined;
  const file = values['redis-url-file'] as string | undefined;
  if (flag !== undefined && file !== undefined) throw new CliError('give --redis-url or --redis-url-file, not both');
  if (file === undefined) return flag ?? (env['REDIS_URL'] || undefined);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`--redis-url-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const url = text.split(/\r?\n/)[0]!.trim();
  if (!url) throw new CliError(`--redis-url-file: ${file} is empty; put the URL on its first line`);
  return url;
}

export type FlagSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

export function strictParse<T extends FlagSpec>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  } catch (error) {
    throw new CliError((error as Error).message.replace(/^.*?: /, '').replace(/\. To specify.*$/, ''));
  }
}
