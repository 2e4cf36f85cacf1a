// Defect 7: a failed connection says why, over real sockets: a wrong password (WRONGPASS), a missing
// one (NOAUTH), a closed port (ECONNREFUSED), a port that is not Redis (an HTTP server), and a TLS
// certificate Node does not trust (a redis-server on a TLS port with a self-signed certificate made
// by openssl) — each used to be "Connection is closed.". With that certificate given as the CA
// (--redis-ca FILE, openRedis's caFile) the same TLS Redis is measured, by every engine.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeRedisDriver } from '../drivers/node-redis-driver.ts';
import { RawDriver } from '../drivers/raw-driver.ts';
import { RedisConnectError } from '../redis/connect-failure.ts';
import { openRedis } from '../redis/open-redis.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { findFreePort } from '../support/free-port.ts';
import { backendRoot, buildServer, startBackend } from '../test-support/backend-process.ts';
import { executeRun } from './run-executor.ts';

const PASSWORD = 'correct-horse-battery';
const opensslAvailable = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

let dir: string;
const servers: ChildProcess[] = [];
let passwordPort: number;
let tlsPort: number;
let closedPort: number;
let http: Server;
let httpPort: number;

/** A redis-server of the test's own (with flags the private one never uses); resolves once it answers. */
async function redisServer(args: string[], ready: string): Promise<void> {
  const child = spawn('redis-server', ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve();
    };
    child.stdout!.on('data', look);
    child.once('exit', () => reject(new Error(`redis-server ${args.join(' ')} exited:\n${output}`)));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pipescope-connect-errors-'));
  passwordPort = await findFreePort();
  await redisServer(['--port', String(passwordPort), '--requirepass', PASSWORD, '--loglevel', 'notice'], 'Ready to accept connections');
  closedPort = await findFreePort(); // nothing listens there
  http = createServer((_, response) => response.end('not redis'));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpPort = (http.address() as { port: number }).port;
  if (opensslAvailable) {
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    tlsPort = await findFreePort();
    await redisServer(['--port', '0', '--tls-port', String(tlsPort), '--tls-cert-file', join(dir, 'cert.pem'), '--tls-key-file', join(dir, 'key.pem'),
      '--tls-auth-clients', 'no', '--loglevel', 'notice'], 'Ready to accept connections');
  }
}, 60_000);

afterAll(async () => {
  for (const child of servers) child.kill('SIGTERM');
  await new Promise((resolve) => http?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** What opening a session on `url` fails with (it must fail). */
async function failure(url: string): Promise<RedisConnectError> {
  const error = await RedisSession.open(targetFromUrl(url)).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(RedisConnectError);
  return error as RedisConnectError;
}

describe('a failed connection says why', () => {
  it('wrong password: WRONGPASS', async () => {
    const error = await failure(`redis://:wrong-password@127.0.0.1:${passwordPort}`);
    expect(error.kind).toBe('wrong-password');
    expect(error.message).toBe('wrong password or user name (Redis answered WRONGPASS invalid username-password pair or user is disabled.)');
  });

  it('wrong user and password: WRONGPASS', async () => {
    expect((await failure(`redis://nobody:${PASSWORD}@127.0.0.1:${passwordPort}`)).kind).toBe('wrong-password');
  });

  it('no password where one is needed: NOAUTH', async () => {
    const error = await failure(`redis://127.0.0.1:${passwordPort}`);
    expect(error.kind).toBe('no-password');
    expect(error.message).toBe('Redis requires a password and none was given (NOAUTH)');
  });

  it('a closed port: ECONNREFUSED', async () => {
    const error = await failure(`redis://127.0.0.1:${closedPort}`);
    expect(error.kind).toBe('refused');
    expect(error.message).toBe(`nothing is listening on 127.0.0.1:${closedPort} (ECONNREFUSED)`);
  });

  it('a port that is not Redis (an HTTP server)', async () => {
    const error = await failure(`redis://127.0.0.1:${httpPort}`);
    expect(error.kind).toBe('not-redis');
    expect(error.message).toBe(`127.0.0.1:${httpPort} is not a Redis server: its answer starts with "H", not a RESP type (an HTTP server answers "HTTP/1.1 …")`);
  });

  it.runIf(opensslAvailable)('an untrusted TLS certificate: certificate error, and how to trust it', async () => {
    const error = await failure(`rediss://localhost:${tlsPort}`);
    expect(error.kind).toBe('tls-certificate');
    expect(error.message).toMatch(/^certificate error: the TLS certificate of localhost:\d+ is not trusted \(self-signed certificate, DEPTH_ZERO_SELF_SIGNED_CERT\)\. If it comes from a private CA, give that CA with --redis-ca FILE \(or NODE_EXTRA_CA_CERTS=FILE\)\.$/);
  });

  it('the start-up message names the URL without its password, and the cause', async () => {
    const error = await openRedis(`redis://:wrong-password@127.0.0.1:${passwordPort}`).then(() => null, (e: Error) => e);
    expect(error?.message).toBe(`Could not connect to redis://***@127.0.0.1:${passwordPort}: wrong password or user name (Redis answered WRONGPASS invalid username-password pair or user is disabled.)`);
  });

  it('the raw engine says the same', async () => {
    const wrong = await RawDriver.open(targetFromUrl(`redis://:wrong-password@127.0.0.1:${passwordPort}`)).then(() => null, (e: unknown) => e);
    expect(wrong).toMatchObject({ kind: 'wrong-password' });
    const refused = await RawDriver.open(targetFromUrl(`redis://127.0.0.1:${closedPort}`)).then(() => null, (e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'refused' });
  });

  it('the node-redis engine says the same', async () => {
    const open = (url: string) => NodeRedisDriver.open(targetFromUrl(url), 'pipescope-connect-test').then(() => null, (e: unknown) => e);
    expect(await open(`redis://:wrong-password@127.0.0.1:${passwordPort}`)).toMatchObject({ kind: 'wrong-password' });
    expect(await open(`redis://127.0.0.1:${passwordPort}`)).toMatchObject({ kind: 'no-password' });
    expect(await open(`redis://127.0.0.1:${closedPort}`)).toMatchObject({ kind: 'refused' });
    expect(await open(`redis://127.0.0.1:${httpPort}`)).toMatchObject({ kind: 'not-redis' });
    if (opensslAvailable) expect(await open(`rediss://localhost:${tlsPort}`)).toMatchObject({ kind: 'tls-certificate' });
  });

  it('a session whose Redis goes away reports the cause in its status', async () => {
    const port = await findFreePort();
    await redisServer(['--port', String(port), '--loglevel', 'notice'], 'Ready to accept connections');
    const session = await RedisSession.open(targetFromUrl(`redis://127.0.0.1:${port}`));
    try {
      servers.at(-1)!.kill('SIGKILL');
      let status = await session.status();
      for (let i = 0; i < 100 && !/ECONNREFUSED/.test(status.message ?? ''); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = await session.status();
      }
      expect(status).toMatchObject({ up: false, message: `Redis at 127.0.0.1:${port} is unreachable: nothing is listening on 127.0.0.1:${port} (ECONNREFUSED)` });
    } finally {
      await session.close();
    }
  });
});

describe.runIf(opensslAvailable)('--redis-ca: a TLS Redis whose certificate comes from a private CA', () => {
  it('is measured by every engine, with memory sampled over TLS', async () => {
    const opened = await openRedis(`rediss://localhost:${tlsPort}`, { caFile: join(dir, 'cert.pem') });
    try {
      for (const engine of ['ioredis', 'raw', 'node-redis'] as const) {
        const doc = await executeRun(opened.session, 'pipeline', { command: 'SET', n: 100, valueBytes: 16, engine, memory: true });
        expect(doc.commands.every((c) => 'reply' in c && c.reply === 'OK')).toBe(true);
        expect(doc.memory?.server.samples.length).toBeGreaterThan(0);
      }
    } finally {
      await opened.close();
    }
  });

  it('npm start -- --redis-ca FILE measures it; without, it stops with the certificate error', async () => {
    expect(buildServer()).toBe('');
    const url = `rediss://localhost:${tlsPort}`;
    const refused = spawnSync('node', [join(backendRoot(), 'dist', 'node', 'server', 'app', 'main.js'), '--port', '0', '--redis-url', url], { encoding: 'utf8', timeout: 30_000 });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`pipescope: Could not connect to ${url}: certificate error:`);
    const backend = await startBackend(['--redis-url', url, '--redis-ca', join(dir, 'cert.pem')]);
    try {
      expect(backend.output()).toMatch(/Measuring Redis 7[\d.]* at localhost:\d+\./);
    } finally {
      await backend.stop();
    }
  }, 120_000);

  it('a file that is not a certificate is refused with its name', async () => {
    await expect(openRedis(`rediss://localhost:${tlsPort}`, { caFile: join(dir, 'key.pem') })).rejects.toThrow(/holds no PEM certificate/);
    await expect(openRedis(`rediss://localhost:${tlsPort}`, { caFile: join(dir, 'missing.pem') })).rejects.toThrow(/Cannot read the CA file given with --redis-ca \(.*missing\.pem\): ENOENT/);
  });
});
