// npm start's flags: port, host and Redis as before, and the new ones for who may use the server
// (--allow-host, --allow-origin, --frame-ancestors), the client limits, and --redis-url-file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from './cli-options.ts';
import { DEFAULT_PORT, SERVE_USAGE, parseServeOptions } from './serve-options.ts';
import { DEFAULT_CLIENT_LIMITS } from '../access/client-limits.ts';
import { thrownMessage } from '../../../trace/test-support/thrown-message.ts';

const cliErrorOf = (action: () => unknown): string => thrownMessage(action, CliError);

describe('parseServeOptions', () => {
  it('defaults: port 7380 on 127.0.0.1, no Redis URL', () => {
    expect(DEFAULT_PORT).toBe(7380);
    expect(parseServeOptions([], {})).toMatchObject({ port: 7380, host: '127.0.0.1', redisUrl: undefined });
  });

  it('treats empty PORT and HOST variables as unset, but names an empty flag', () => {
    expect(parseServeOptions([], { PORT: '', HOST: '' })).toMatchObject({ port: 7380, host: '127.0.0.1', redisUrl: undefined });
    expect(() => parseServeOptions(['--port='], {})).toThrow('--port must be a number');
    expect(() => parseServeOptions(['--host='], {})).toThrow('--host must not be empty');
  });

  it('takes PORT, HOST and REDIS_URL from the environment', () => {
    expect(parseServeOptions([], { PORT: '8080', HOST: '0.0.0.0', REDIS_URL: 'redis://cache:6379' })).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      redisUrl: 'redis://cache:6379',
    });
  });

  it('flags win over the environment', () => {
    const env = { PORT: '8080', HOST: '0.0.0.0', REDIS_URL: 'redis://cache:6379' };
    expect(parseServeOptions(['--port', '9000', '--host', '::1', '--redis-url', 'rediss://r.example:6380'], env)).toMatchObject({
      port: 9000,
      host: '::1',
      redisUrl: 'rediss://r.example:6380',
    });
  });

  it('an empty REDIS_URL means none', () => {
    expect(parseServeOptions([], { REDIS_URL: '' })).toMatchObject({ redisUrl: undefined });
  });

  it('accepts --port=N, 0 (pick a free port) and 65535', () => {
    expect(parseServeOptions(['--port=0'], {})).toMatchObject({ port: 0 });
    expect(parseServeOptions(['--port', '65535'], {})).toMatchObject({ port: 65535 });
  });

  it.each([
    [['--port', '65536'], '--port must be 0..65535'],
    [['--port=-1'], '--port must be 0..65535'],
    [['--port', '80.5'], '--port must be a whole number'],
    [['--port', 'http'], '--port must be a number'],
  ])('refuses %j', (argv, message) => {
    expect(cliErrorOf(() => parseServeOptions(argv, {}))).toBe(message);
  });

  it('refuses a bad PORT from the environment with the same messages', () => {
    expect(cliErrorOf(() => parseServeOptions([], { PORT: '99999' }))).toBe('--port must be 0..65535');
    expect(cliErrorOf(() => parseServeOptions([], { PORT: 'eighty' }))).toBe('--port must be a number');
  });

  it('refuses an empty --host', () => {
    expect(cliErrorOf(() => parseServeOptions(['--host', ''], {}))).toBe('--host must not be empty');
  });

  it('refuses unknown flags and positional arguments', () => {
    expect(cliErrorOf(() => parseServeOptions(['--prot', '80'], {}))).toBe("Unknown option '--prot'");
    expect(cliErrorOf(() => parseServeOptions(['-p'], {}))).toBe("Unknown option '-p'");
    expect(cliErrorOf(() => parseServeOptions(['8080'], {}))).toBe(
      "Unexpected argument '8080'. This command does not take positional arguments",
    );
  });

  it('refuses a flag without its value', () => {
    expect(cliErrorOf(() => parseServeOptions(['--port'], {}))).toBe("Option '--port <value>' argument missing");
  });

  it('--help and -h ask for help, even with other flags', () => {
    expect(parseServeOptions(['--help'], {})).toBe('help');
    expect(parseServeOptions(['-h'], {})).toBe('help');
    expect(parseServeOptions(['--port', '99999', '--help'], {})).toBe('help');
  });
});


describe('parseServeOptions: who may use the server', () => {
  it('by default allows no extra hosts, origins or framing sites, and sets no limits of its own', () => {
    expect(parseServeOptions([], {})).toEqual({
      port: 7380, host: '127.0.0.1', redisUrl: undefined, allowOrigins: [], allowHosts: [], frameAncestors: [], limits: {},
    });
  });

  it('takes --allow-origin, --allow-host and --frame-ancestors, each repeatable, normalised', () => {
    const options = parseServeOptions([
      '--allow-origin', 'https://Docs.Example.com', '--allow-origin', 'http://localhost:5173/',
      '--allow-host', 'Laptop.LAN', '--allow-host', '::1',
      '--frame-ancestors', 'https://docs.example.com', '--frame-ancestors', '*.example.org',
    ], {});
    expect(options).toMatchObject({
      allowOrigins: ['https://docs.example.com', 'http://localhost:5173'],
      allowHosts: ['laptop.lan', '[::1]'],
      frameAncestors: ['https://docs.example.com', '*.example.org'],
    });
  });

  it.each([
    [['--allow-origin', '*'], '--allow-origin must be an origin like https://docs.example.com or http://localhost:5173, not "*"'],
    [['--allow-origin', 'null'], '--allow-origin must be an origin like https://docs.example.com or http://localhost:5173, not "null"'],
    [['--allow-origin', 'https://a.example/path'], '--allow-origin must be an origin like https://docs.example.com or http://localhost:5173, not "https://a.example/path"'],
    [['--allow-host', 'evil.example:80'], '--allow-host must be a host name or address without a port, not "evil.example:80"'],
    [['--frame-ancestors', "https://a.example; script-src *"], '--frame-ancestors must be an origin like https://docs.example.com, a scheme like https:, or *, not "https://a.example; script-src *"'],
    [['--frame-ancestors', 'https://a.example\r\nSet-Cookie: x=1'], '--frame-ancestors must be an origin like https://docs.example.com, a scheme like https:, or *, not "https://a.example\r\nSet-Cookie: x=1"'],
  ])('refuses %j', (argv, message) => {
    expect(cliErrorOf(() => parseServeOptions(argv, {}))).toBe(message);
  });
});

describe('parseServeOptions: client limits', () => {
  it('takes each limit flag as a whole number of at least 1', () => {
    const options = parseServeOptions(['--max-connections', '500', '--max-queued-per-client', '1', '--max-runs-per-minute', '10', '--max-queued-commands', '5_000_000'], {});
    expect(options).toMatchObject({ limits: { maxConnections: 500, maxQueuedPerConnection: 1, maxRunsPerMinute: 10, maxQueuedCommands: 5_000_000 } });
  });

  it('takes the per-address limits and the longest run in seconds', () => {
    const options = parseServeOptions(['--max-connections-per-address', '4', '--max-queued-per-address', '2', '--max-follow-sessions-per-address', '1', '--max-run-seconds', '3600'], {});
    expect(options).toMatchObject({ limits: { maxConnectionsPerAddress: 4, maxQueuedPerAddress: 2, maxFollowSessionsPerAddress: 1, maxRunSeconds: 3600 } });
    expect(cliErrorOf(() => parseServeOptions(['--max-run-seconds', '0'], {}))).toBe('--max-run-seconds must be a whole number of at least 1, not "0"');
  });

  it.each([['0'], ['-3'], ['2.5'], ['lots'], ['']])('refuses %j', (value) => {
    expect(cliErrorOf(() => parseServeOptions([`--max-connections=${value}`], {}))).toBe(`--max-connections must be a whole number of at least 1, not "${value}"`);
  });

  it('--help names every limit flag and its default', () => {
    for (const [flag, value] of [
      ['--max-connections N', DEFAULT_CLIENT_LIMITS.maxConnections],
      ['--max-queued-per-client N', DEFAULT_CLIENT_LIMITS.maxQueuedPerConnection],
      ['--max-runs-per-minute N', DEFAULT_CLIENT_LIMITS.maxRunsPerMinute],
      ['--max-queued-commands N', DEFAULT_CLIENT_LIMITS.maxQueuedCommands.toLocaleString('en-US')],
      ['--max-connections-per-address N', DEFAULT_CLIENT_LIMITS.maxConnectionsPerAddress],
      ['--max-queued-per-address N', DEFAULT_CLIENT_LIMITS.maxQueuedPerAddress],
      ['--max-follow-sessions-per-address N', DEFAULT_CLIENT_LIMITS.maxFollowSessionsPerAddress],
      ['--max-run-seconds S', DEFAULT_CLIENT_LIMITS.maxRunSeconds],
    ] as const) {
      expect(SERVE_USAGE).toContain(flag);
      expect(SERVE_USAGE).toContain(`(default ${value}`);
    }
  });
});

describe('parseServeOptions: --redis-url-file', () => {
  const file = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'pipescope-url-')), 'redis-url');
    writeFileSync(path, text);
    return path;
  };

  it('reads the URL from the first line of the file, over REDIS_URL', () => {
    const path = file('redis://:s3cret@cache:6379\nanything after\n');
    expect(parseServeOptions(['--redis-url-file', path], { REDIS_URL: 'redis://other:1' })).toMatchObject({ redisUrl: 'redis://:s3cret@cache:6379' });
  });

  it('refuses both flags at once, a missing file and an empty one, without quoting any URL', () => {
    expect(cliErrorOf(() => parseServeOptions(['--redis-url', 'redis://a:1', '--redis-url-file', 'x'], {}))).toBe('give --redis-url or --redis-url-file, not both');
    expect(cliErrorOf(() => parseServeOptions(['--redis-url-file', '/nonexistent/url'], {}))).toBe('--redis-url-file: cannot read /nonexistent/url (ENOENT)');
    const empty = file('\n');
    expect(cliErrorOf(() => parseServeOptions(['--redis-url-file', empty], {}))).toBe(`--redis-url-file: ${empty} is empty; put the URL on its first line`);
  });
});
