// redis-benchmark takes a password only as `-a` on its command line, where every user of the machine
// can read it (`ps`, /proc/<pid>/cmdline), and version 7 does not read REDISCLI_AUTH as redis-cli
// does. So against a Redis with a password, redis-benchmark connects to this relay instead: a Unix
// socket in a private directory (mode 0700, so only this user can connect) that opens a connection to
// Redis for each one it accepts, sends AUTH [user] password on it, and once Redis says +OK copies
// bytes both ways untouched. The password never leaves this process. It is one more local hop, so
// the reference's recorded arguments say `-s <auth relay>`. Its folder is named with this process's
// pid (`pipescope-relay-<pid>-…`): a backend killed mid-sweep (kill -9) cannot remove it, so the next
// relay started on the machine removes every such folder of ours whose process is gone.
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from '../protocol/resp-encoder.ts';

const RELAY_FOLDER_PREFIX = 'pipescope-relay-';
const RELAY_FOLDER = /^pipescope-relay-(\d+)-[A-Za-z0-9]{6}$/;

/**
 * Removes the relay folders left by processes that died without closing their relay: named with a pid
 * that no longer runs, owned by this user. Returns how many it removed.
 */
export function removeStaleRelayFolders(dir = tmpdir()): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const pid = Number(RELAY_FOLDER.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid === process.pid || running(pid)) continue;
    const path = join(dir, name);
    try {
      const stat = lstatSync(path);
      if (!stat.isDirectory() || stat.uid !== process.getuid?.()) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The longest first reply line read while authenticating (bytes); Redis's errors are far shorter. */
const MAX_REPLY_LINE = 4096;

export class BenchmarkAuthRelay {
  /** What Redis answered to AUTH when it refused, for the error message (no password in it). */
  refusal: string | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly dir: string,
    readonly path: string,
  ) {}

  /** Listens at once; `auth` is the AUTH command's arguments after its name ([user,] password). */
  static async start(upstream: { host: string; port: number }, auth: string[]): Promise<BenchmarkAuthRelay> {
    removeStaleRelayFolders();
    const dir = mkdtempSync(join(tmpdir(), `${RELAY_FOLDER_PREFIX}${process.pid}-`)); // created 0700
    const path = join(dir, 'redis.sock');
    const server = createServer();
    const relay = new BenchmarkAuthRelay(server, dir, path);
    server.on('connection', (client) => relay.serve(client, upstream, auth));
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(path, resolve);
      });
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    return relay;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private serve(client: Socket, upstream: { host: string; port: number }, auth: string[]): void {
    client.pause(); // nothing goes to Redis before AUTH is answered
    const redis = connect(upstream);
    redis.setNoDelay(true);
    for (const socket of [client, redis]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        redis.destroy();
      });
    }
    redis.once('connect', () => redis.write(encode(['AUTH', ...auth])));
    let reply = Buffer.alloc(0);
    const onAuthReply = (chunk: Buffer) => {
      reply = Buffer.concat([reply, chunk]);
      const end = reply.indexOf('\r\n');
      if (end === -1 && reply.length < MAX_REPLY_LINE) return;
      redis.off('data', onAuthReply);
      const line = reply.subarray(0, end === -1 ? MAX_REPLY_LINE : end).toString('latin1');
      if (!line.startsWith('+')) {
        this.refusal = line.replace(/^-/, '') || 'no answer to AUTH';
        client.destroy();
        redis.destroy();
        return;
      }
      const rest = reply.subarray(end + 2);
      if (rest.length > 0) client.write(rest);
      redis.pipe(client);
      client.pipe(redis); // resumes the client
    };
    redis.on('data', onAuthReply);
    client.on('close', () => redis.destroy());
    redis.on('close', () => client.destroy());
  }
}
