import { describe, expect, it } from 'vitest';
import { CliError, parseCompactOptions, parseDepthList, parseRecordOptions, parseSweepOptions } from './cli-options.ts';
import { thrownMessage } from '../../../trace/test-support/thrown-message.ts';

const cliErrorOf = (action: () => unknown): string => thrownMessage(action, CliError);

describe('parseRecordOptions', () => {
  const REQUIRED = ['--mode', 'pipeline', '--command', 'PING', '--n', '100', '--out', 'trace.json'];

  /** The required flags with `flag` set to `value` (appended; parseArgs keeps the last). */
  const withFlag = (flag: string, value: string) => [...REQUIRED, flag, value];

  it('--server-trace turns server-side tracing on', () => {
    const options = parseRecordOptions([...REQUIRED, '--server-trace'], {});
    expect(options !== 'help' && options.spec.serverTrace).toBe(true);
  });

  it('--no-kernel-tcp turns the kernel TCP figures off, and --cluster does by default (not taken per node)', () => {
    const kernel = (argv: string[]) => {
      const options = parseRecordOptions(argv, {});
      return options !== 'help' && options.spec.kernelTcp;
    };
    expect(kernel(REQUIRED)).toBe(true);
    expect(kernel([...REQUIRED, '--no-kernel-tcp'])).toBe(false);
    expect(kernel([...REQUIRED, '--cluster'])).toBe(false);
  });

  it('parses a complete command line, with defaults', () => {
    expect(parseRecordOptions(REQUIRED, {})).toEqual({
      modes: ['pipeline'],
      spec: {
        command: 'PING', n: 100, valueBytes: 16, rttMs: 0, jitterMs: 0, engine: 'ioredis', serverTrace: false, monitor: false, strace: false,
        cold: false, repeats: 1, kernelTcp: true, modes: ['pipeline'],
        chunkPauseMs: 0, errorKind: 'runtime', neighborRate: 0, neighborCommand: 'INCR', heldConnection: false, clusterKeys: 'spread', clusterSplit: 'parallel',
      },
      redisUrl: undefined,
      out: 'trace.json',
      everyRepeat: false,
    });
  });

  it('takes a cluster\'s keys and split, refusing other values and a serial split without the raw pipeline', () => {
    expect(parseRecordOptions([...REQUIRED, '--engine', 'raw', '--keys', 'hashtag', '--split', 'serial'], {})).toMatchObject({ spec: { clusterKeys: 'hashtag', clusterSplit: 'serial' } });
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--keys', 'everywhere'], {}))).toMatch(/clusterKeys must be spread or hashtag/);
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--split', 'serial'], {}))).toMatch(/clusterSplit serial is how the raw engine writes a pipeline/);
  });

  it('takes --reshard for a GET or SET run, refusing it for other commands; absent without the flag', () => {
    const get = [...withFlag('--command', 'GET'), '--engine', 'raw', '--cluster', '--reshard'];
    expect(parseRecordOptions(get, {})).toMatchObject({ spec: { command: 'GET', reshard: true }, cluster: { replicas: 0 } });
    expect(parseRecordOptions(REQUIRED, {})).not.toHaveProperty('spec.reshard');
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--reshard'], {}))).toMatch(/reshard checks each reply against the value stored/);
  });

  it('takes a cluster comparison, refusing another value and a split comparison without the raw pipeline', () => {
    expect(parseRecordOptions([...REQUIRED, '--compare', 'keys'], {})).toMatchObject({ spec: { clusterCompare: 'keys' } });
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--compare', 'both'], {}))).toMatch(/clusterCompare must be keys or split/);
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--compare', 'split'], {}))).toMatch(/clusterCompare split compares how the raw engine writes a pipeline/);
  });

  it('compares several modes, until certain unless --repeats says a count', () => {
    const both = withFlag('--mode', 'sequential,pipeline');
    expect(parseRecordOptions(both, {})).toMatchObject({ modes: ['sequential', 'pipeline'], spec: { modes: ['sequential', 'pipeline'], repeats: 'until-certain' }, everyRepeat: false });
    expect(parseRecordOptions([...both, '--repeats', '20', '--every-repeat'], {})).toMatchObject({ spec: { repeats: 20 }, everyRepeat: true });
    expect(parseRecordOptions([...REQUIRED, '--repeats', 'until-certain'], {})).toMatchObject({ spec: { repeats: 'until-certain' } });
    expect(parseRecordOptions([...withFlag('--mode', 'pipeline,chunked'), '--chunk', '10'], {})).toMatchObject({ modes: ['pipeline', 'chunked'], spec: { chunk: 10 } });
    expect(cliErrorOf(() => parseRecordOptions(withFlag('--mode', 'sequential,sequential'), {}))).toBe('--mode names sequential twice');
    expect(cliErrorOf(() => parseRecordOptions(withFlag('--mode', 'sequential,pipes'), {}))).toBe('--mode must be one of sequential, pipeline, chunked, multi, eval, evalsha, multikey, auto, not "pipes"');
    expect(cliErrorOf(() => parseRecordOptions([...both, '--chunk', '10'], {}))).toBe('--chunk is the chunked mode\'s: add chunked to --mode');
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--every-repeat'], {}))).toBe('--every-repeat is for several modes (--mode sequential,pipeline): one mode writes its median run');
    expect(cliErrorOf(() => parseRecordOptions([...both, '--repeats', 'forever'], {}))).toBe('--repeats: repeats must be a whole number from 1 to 40, or "until-certain"');
  });

  it('takes MONITOR and strace as two choices, --cold and --repeats', () => {
    expect(parseRecordOptions([...REQUIRED, '--monitor'], {})).toMatchObject({ spec: { monitor: true, strace: false, serverTrace: false } });
    expect(parseRecordOptions([...REQUIRED, '--strace'], {})).toMatchObject({ spec: { monitor: false, strace: true } });
    expect(parseRecordOptions([...REQUIRED, '--cold', '--repeats', '5'], {})).toMatchObject({ spec: { cold: true, repeats: 5 } });
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--repeats', '0'], {}))).toBe('--repeats: repeats must be at least 1');
  });

  it('upper-cases the command and reads 10_000 as 10000', () => {
    const options = parseRecordOptions([...withFlag('--command', 'set'), '--n', '10_000', '--value-bytes', '512'], {});
    expect(options).toMatchObject({ spec: { command: 'SET', n: 10_000, valueBytes: 512 } });
  });

  it('takes REDIS_URL from the environment, and --redis-url over it', () => {
    expect(parseRecordOptions(REQUIRED, { REDIS_URL: 'redis://a:1' })).toMatchObject({ redisUrl: 'redis://a:1' });
    expect(parseRecordOptions(withFlag('--redis-url', 'redis://b:2'), { REDIS_URL: 'redis://a:1' })).toMatchObject({ redisUrl: 'redis://b:2' });
  });

  it.each(['mode', 'command', 'n', 'out'])('requires --%s', (flag) => {
    const argv: string[] = [];
    for (let i = 0; i < REQUIRED.length; i += 2) if (REQUIRED[i] !== `--${flag}`) argv.push(REQUIRED[i]!, REQUIRED[i + 1]!);
    expect(cliErrorOf(() => parseRecordOptions(argv, {}))).toBe(`--${flag} is required`);
  });

  it('names the first missing flag when none are given', () => {
    expect(cliErrorOf(() => parseRecordOptions([], {}))).toBe('--mode is required');
  });

  it('refuses a bad mode, quoting it', () => {
    expect(cliErrorOf(() => parseRecordOptions(withFlag('--mode', 'both'), {}))).toBe('--mode must be one of sequential, pipeline, chunked, multi, eval, evalsha, multikey, auto, not "both"');
    expect(cliErrorOf(() => parseRecordOptions(withFlag('--mode', 'Pipeline'), {}))).toBe(
      '--mode must be one of sequential, pipeline, chunked, multi, eval, evalsha, multikey, auto, not "Pipeline"',
    );
  });

  it('refuses a bad command, quoting it as typed', () => {
    expect(cliErrorOf(() => parseRecordOptions(withFlag('--command', 'flushall'), {}))).toBe(
      '--command must be one of PING, INCR, SET, GET, GET-COMPUTE-SET, not "flushall"',
    );
  });

  it.each([
    ['0', '--n: n must be at least 1'],
    ['1_000_001', '--n: n must be at most 1,000,000'],
    ['1.5', '--n: n must be a whole number'],
    ['ten', '--n: n must be a number'],
    ['1e3', '--n: n must be a number'],
    ['', '--n: n must be a number'],
  ])('refuses --n %j', (n, message) => {
    expect(cliErrorOf(() => parseRecordOptions(withFlag('--n', n), {}))).toBe(message);
  });

  it('accepts --n at its bounds', () => {
    expect(parseRecordOptions(withFlag('--n', '1'), {})).toMatchObject({ spec: { n: 1 } });
    expect(parseRecordOptions(withFlag('--n', '1000000'), {})).toMatchObject({ spec: { n: 1_000_000 } });
  });

  it.each([
    ['1048577', '--value-bytes: valueBytes must be at most 1048576 (1 MiB)'],
    ['=-1', '--value-bytes: valueBytes must be at least 0'],
    ['lots', '--value-bytes: valueBytes must be a number'],
  ])('refuses --value-bytes %s', (value, message) => {
    const argv = value.startsWith('=') ? [...REQUIRED, `--value-bytes${value}`] : withFlag('--value-bytes', value);
    expect(cliErrorOf(() => parseRecordOptions(argv, {}))).toBe(message);
  });

  it('refuses a SET run over 256 MiB in total, naming --value-bytes', () => {
    const argv = [...withFlag('--command', 'SET'), '--n', '1000', '--value-bytes', '1048576'];
    expect(cliErrorOf(() => parseRecordOptions(argv, {}))).toBe('--value-bytes: n × valueBytes must be at most 256 MiB per run');
  });

  it('refuses --rtt-ms and --jitter-ms out of bounds, naming the flag', () => {
    expect(cliErrorOf(() => parseRecordOptions(withFlag('--rtt-ms', '1001'), {}))).toBe('--rtt-ms: rttMs must be at most 1000');
    expect(cliErrorOf(() => parseRecordOptions(withFlag('--jitter-ms', '501'), {}))).toBe('--jitter-ms: jitterMs must be at most 500');
    expect(parseRecordOptions([...withFlag('--rtt-ms', '2.5'), '--jitter-ms', '0.5'], {})).toMatchObject({ spec: { rttMs: 2.5, jitterMs: 0.5 } });
  });

  it('takes a neighbour (--neighbor-rate, --neighbor-command) and --held-connection', () => {
    expect(parseRecordOptions([...REQUIRED, '--neighbor-rate', '6_000', '--neighbor-command', 'get', '--held-connection'], {})).toMatchObject({
      spec: { neighborRate: 6000, neighborCommand: 'GET', heldConnection: true },
    });
    expect(parseRecordOptions([...REQUIRED, '--neighbor-rate', '0.5'], {})).toMatchObject({ spec: { neighborRate: 0.5, neighborCommand: 'INCR' } });
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--neighbor-rate', '20001'], {}))).toBe('--neighbor-rate: neighborRate must be at most 20,000 per second');
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--neighbor-rate', 'fast'], {}))).toBe('--neighbor-rate: neighborRate must be a number');
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--neighbor-rate', '10', '--neighbor-command', 'SET'], {}))).toBe('--neighbor-command: neighborCommand must be INCR or GET');
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--neighbor-command', 'GET'], {}))).toBe('--neighbor-command needs --neighbor-rate R (commands per second)');
  });

  it('refuses unknown flags', () => {
    expect(cliErrorOf(() => parseRecordOptions([...REQUIRED, '--count', '5'], {}))).toBe("Unknown option '--count'");
  });

  it('--help asks for help before checking required flags', () => {
    expect(parseRecordOptions(['--help'], {})).toBe('help');
    expect(parseRecordOptions(['-h', '--mode', 'nope'], {})).toBe('help');
  });
});

describe('parseRecordOptions: the v3 modes, GET-COMPUTE-SET, planted errors, chunk pauses', () => {
  const base = (command: string, n = '10') => ['--command', command, '--n', n, '--out', 't.json'];

  it.each(['multi', 'eval', 'evalsha', 'auto'])('--mode %s', (mode) => {
    expect(parseRecordOptions([...base('INCR'), '--mode', mode], {})).toMatchObject({ modes: [mode], spec: { modes: [mode] } });
  });

  it('--mode multikey for SET and GET; refused for INCR with the reason', () => {
    expect(parseRecordOptions([...base('set'), '--mode', 'multikey'], {})).toMatchObject({ modes: ['multikey'], spec: { command: 'SET' } });
    expect(cliErrorOf(() => parseRecordOptions([...base('INCR'), '--mode', 'multikey'], {}))).toBe(
      '--mode: multikey needs SET (sent as one MSET) or GET (one MGET); PING, INCR and GET-COMPUTE-SET have no multi-key form',
    );
  });

  it('--command GET-COMPUTE-SET runs sequentially or as one EVAL only', () => {
    expect(parseRecordOptions([...base('get-compute-set'), '--mode', 'eval'], {})).toMatchObject({ spec: { command: 'GET-COMPUTE-SET' } });
    expect(cliErrorOf(() => parseRecordOptions([...base('GET-COMPUTE-SET'), '--mode', 'pipeline'], {}))).toMatch(/^--mode: GET-COMPUTE-SET needs each GET's reply before its SET/);
  });

  it('--engine node-redis parses; raw refuses auto', () => {
    expect(parseRecordOptions([...base('PING'), '--mode', 'auto', '--engine', 'node-redis'], {})).toMatchObject({ spec: { engine: 'node-redis' } });
    expect(cliErrorOf(() => parseRecordOptions([...base('PING'), '--mode', 'auto', '--engine', 'raw'], {}))).toBe(
      '--mode: auto-pipelining is something a client library does: choose ioredis or node-redis for auto',
    );
    expect(cliErrorOf(() => parseRecordOptions([...base('PING'), '--mode', 'pipeline', '--engine', 'jedis'], {}))).toBe('--engine: engine must be ioredis, raw or node-redis');
  });

  it('--error-at K and --error-kind', () => {
    expect(parseRecordOptions([...base('INCR'), '--mode', 'multi', '--error-at', '3', '--error-kind', 'queueing'], {})).toMatchObject({ spec: { errorAt: 3, errorKind: 'queueing' } });
    expect(parseRecordOptions([...base('INCR'), '--mode', 'pipeline', '--error-at', '0'], {})).toMatchObject({ spec: { errorAt: 0, errorKind: 'runtime' } });
  });

  it.each([
    [['INCR', '--mode', 'pipeline', '--error-at', '10'], '--error-at: errorAt counts operations from 0: it must be less than n'],
    [['INCR', '--mode', 'pipeline', '--error-at=-1'], '--error-at: errorAt must be at least 0'],
    [['INCR', '--mode', 'pipeline', '--error-at', '1.5'], '--error-at: errorAt must be a whole number'],
    [['INCR', '--mode', 'pipeline', '--error-at', 'x'], '--error-at: errorAt must be a number'],
    [['SET', '--mode', 'pipeline', '--error-at', '1'], '--error-at: errorAt plants a failing INCR: it needs command INCR'],
    [['INCR', '--mode', 'pipeline', '--error-at', '1', '--error-kind', 'late'], '--error-kind: errorKind must be runtime or queueing'],
    [['INCR', '--mode', 'eval', '--error-at', '1', '--error-kind', 'queueing'], '--error-kind: a queueing error is a command Redis rejects before running it; inside one EVAL there is none: choose runtime'],
    [['INCR', '--mode', 'pipeline', '--error-kind', 'queueing'], '--error-kind says how operation K fails: give --error-at K too'],
    [['INCR', '--mode', 'multi', '--chunk', '2'], '--chunk is for pipelines: use --mode pipeline or chunked'],
    [['PING', '--mode', 'pipeline', '--chunk-pause-ms', '5'], '--chunk-pause-ms: chunkPauseMs is the pause between chunks: it needs the chunked mode'],
    [['PING', '--mode', 'chunked', '--chunk', '2', '--chunk-pause-ms', '5000'], '--chunk-pause-ms: chunkPauseMs must be at most 1000'],
  ])('refuses %j', ([command, ...flags], message) => {
    expect(cliErrorOf(() => parseRecordOptions([...base(command!), ...flags], {}))).toBe(message);
  });

  it('--chunk-pause-ms for a chunked run', () => {
    expect(parseRecordOptions([...base('PING'), '--mode', 'pipeline', '--chunk', '2', '--chunk-pause-ms', '2.5'], {})).toMatchObject({ modes: ['chunked'], spec: { chunk: 2, chunkPauseMs: 2.5 } });
  });
});

describe('parseRecordOptions: chunks and memory', () => {
  const BASE = ['--command', 'PING', '--n', '10000', '--out', 't.json'];

  it('--mode pipeline --chunk C records N commands in pipelines of C (a chunked run)', () => {
    expect(parseRecordOptions([...BASE, '--mode', 'pipeline', '--chunk', '1_000'], {})).toMatchObject({ modes: ['chunked'], spec: { chunk: 1000, modes: ['chunked'] } });
    expect(parseRecordOptions([...BASE, '--mode', 'chunked', '--chunk', '500'], {})).toMatchObject({ modes: ['chunked'], spec: { chunk: 500 } });
  });

  it('refuses --chunk where it means nothing, and chunked without it', () => {
    expect(cliErrorOf(() => parseRecordOptions([...BASE, '--mode', 'sequential', '--chunk', '10'], {}))).toBe('--chunk is for pipelines: use --mode pipeline or chunked');
    expect(cliErrorOf(() => parseRecordOptions([...BASE, '--mode', 'chunked'], {}))).toBe('--mode chunked needs --chunk C (commands per pipeline)');
    expect(cliErrorOf(() => parseRecordOptions([...BASE, '--mode', 'pipeline', '--chunk', '0'], {}))).toBe('--chunk: chunk must be at least 1');
  });

  it('--no-memory turns memory sampling off, --memory on; without either the run decides (memorySampled)', () => {
    expect(parseRecordOptions([...BASE, '--mode', 'pipeline', '--no-memory'], {})).toMatchObject({ spec: { memory: false } });
    expect(parseRecordOptions([...BASE, '--mode', 'pipeline', '--memory'], {})).toMatchObject({ spec: { memory: true } });
    const options = parseRecordOptions([...BASE, '--mode', 'pipeline'], {});
    expect(options !== 'help' && 'memory' in options.spec).toBe(false);
  });
});

describe('parseSweepOptions', () => {
  it('defaults: PING, depths 1…1024 doubling, 10,000 per point, 3 repeats, no reference', () => {
    expect(parseSweepOptions(['--out', 's.json'], {})).toEqual({
      spec: { command: 'PING', valueBytes: 16, depths: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024], perPoint: 10_000, repeats: 6, engine: 'ioredis', rttMs: 0, jitterMs: 0, reference: false },
      redisUrl: undefined,
      out: 's.json',
    });
  });

  it('takes the depths as the docs write them, or a maximum', () => {
    expect(parseSweepOptions(['--depths', '1,2,4,…,64', '--per-point', '5000', '--out', 's.json', '--reference'], {})).toMatchObject({
      spec: { depths: [1, 2, 4, 8, 16, 32, 64], perPoint: 5000, reference: true },
    });
    expect(parseSweepOptions(['--max-depth', '100', '--out', 's.json'], {})).toMatchObject({ spec: { depths: [1, 2, 4, 8, 16, 32, 64, 100] } });
  });

  it('refuses bad lists and limits, naming the flag', () => {
    expect(cliErrorOf(() => parseSweepOptions(['--depths', '1,x', '--out', 's'], {}))).toBe('--depths: "x" is not a whole number of at least 1');
    expect(cliErrorOf(() => parseSweepOptions(['--depths', '4,2', '--out', 's'], {}))).toBe('--depths: depths must be increasing, each once');
    expect(cliErrorOf(() => parseSweepOptions(['--depths', '1', '--max-depth', '8', '--out', 's'], {}))).toBe('give --depths or --max-depth, not both');
    expect(cliErrorOf(() => parseSweepOptions(['--repeats', '50', '--out', 's'], {}))).toBe('--repeats: repeats must be at most 10');
    expect(cliErrorOf(() => parseSweepOptions(['--depths', '1'], {}))).toBe('--out is required');
  });
});

describe('parseCompactOptions', () => {
  it('takes IN and an optional OUT, by default IN named .json.gz', () => {
    expect(parseCompactOptions(['run.json'])).toEqual({ input: 'run.json', out: 'run.json.gz' });
    expect(parseCompactOptions(['exported', 'web/run.json.gz'])).toEqual({ input: 'exported', out: 'web/run.json.gz' });
    expect(parseCompactOptions(['--help'])).toBe('help');
  });

  it('refuses to overwrite its input, a missing IN, and more than two files', () => {
    expect(thrownMessage(() => parseCompactOptions(['run.json.gz']), CliError)).toBe('compact would overwrite run.json.gz: give OUT, e.g. compact run.json.gz run.compact.json.gz');
    expect(thrownMessage(() => parseCompactOptions([]), CliError)).toBe('compact needs the trace file to convert: compact IN [OUT]');
    expect(thrownMessage(() => parseCompactOptions(['a', 'b', 'c']), CliError)).toBe('compact takes IN and OUT, not also "c"');
    expect(thrownMessage(() => parseCompactOptions(['a', '--level', '3']), CliError)).toMatch(/Unknown option '--level'/);
  });
});

describe('parseDepthList', () => {
  it('continues the doubling across an ellipsis (… or ...)', () => {
    expect(parseDepthList('1,2,4,…,32')).toEqual([1, 2, 4, 8, 16, 32]);
    expect(parseDepthList('1, ..., 8, 100')).toEqual([1, 2, 4, 8, 100]);
    expect(parseDepthList('3,10,1000')).toEqual([3, 10, 1000]);
  });

  it('refuses an ellipsis with nothing on one side', () => {
    expect(cliErrorOf(() => parseDepthList('…,8'))).toBe('--depths: "…" must stand between two depths, as in 1,2,4,…,1024');
    expect(cliErrorOf(() => parseDepthList('1,…'))).toBe('--depths: "…" must stand between two depths, as in 1,2,4,…,1024');
  });
});
