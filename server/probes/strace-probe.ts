// Counts Redis's system calls on the run's socket the only way that is not an estimate: strace
// attached to Pipescope's own redis-server for the length of one run. Only read/write/writev on the
// run's socket are kept, plus the epoll_wait calls that woke for it; each keeps its time (host wall
// clock, the same clock Redis's TIME reads), its result and its first bytes.
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Syscall } from '../../trace/format/trace-format.ts';
import { spawnWatched, type WatchedProcess } from '../support/watched-process.ts';

/** Bytes of data strace prints per call (-s); the wire view shows them escaped. */
export const SYSCALL_HEAD_BYTES = 64;

export interface RawSyscall extends Omit<Syscall, 'atUs'> {
  /** Host wall clock, µs since the epoch. */
  atEpochUs: number;
}

export function straceAvailable(): boolean {
  return process.platform === 'linux' && spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0;
}

export class StraceProbe {
  private constructor(
    private readonly process: WatchedProcess,
    private readonly dir: string,
  ) {}

  /**
   * Attaches to every thread of `pid`; resolves once strace says it is attached. strace runs under a
   * watchdog (support/watched-process.ts): if this process dies, strace is stopped and its folder of
   * wire bytes removed.
   */
  static async attach(pid: number): Promise<StraceProbe> {
    const dir = mkdtempSync(join(tmpdir(), 'pipescope-strace-'));
    const watched = spawnWatched('strace', ['-f', '-ttt', '-yy', '-s', String(SYSCALL_HEAD_BYTES),
      '-e', 'trace=read,write,writev,epoll_wait', '-p', String(pid), '-o', join(dir, 'trace')], dir, { keepDir: true });
    let stderr = '';
    try {
      await new Promise<void>((resolve, reject) => {
        watched.watchdog.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (/attached/.test(stderr)) resolve();
        });
        void watched.ended.then(() => reject(new Error(`strace could not attach to redis-server (pid ${pid}): ${stderr.trim() || 'it exited'}`)));
      });
    } catch (error) {
      await watched.release();
      throw error;
    }
    return new StraceProbe(watched, dir);
  }

  /** Detaches and returns the calls on the connection whose client port is `clientPort`. */
  async stop(clientPort: number): Promise<RawSyscall[]> {
    await this.process.stop();
    try {
      return await parseStraceFile(join(this.dir, 'trace'), clientPort);
    } finally {
      await this.process.release();
    }
  }

  /** Detaches without reading anything (a cancelled or failed run). */
  async abandon(): Promise<void> {
    await this.process.release();
  }
}

// pid, epoch time, call(fd<what the fd is>, args) = result; a socket reads TCP:[local->peer].
const LINE = /^(?:\d+\s+)?(\d+\.\d+) (read|write|writev|epoll_wait)\((\d+)<(TCP:\[[^\]]*\]|[^>]*)>, (.*)\) += (-?\d+)/;

export async function parseStraceFile(path: string, clientPort: number): Promise<RawSyscall[]> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  const parsed: { atEpochUs: number; call: Syscall['call']; fd: string; target: string; args: string; result: number }[] = [];
  let runFd: string | undefined;
  for await (const line of lines) {
    const match = LINE.exec(line);
    if (!match) continue; // signals, "resumed" halves, exits
    const [, seconds, call, fd, target, args, result] = match as unknown as [string, string, Syscall['call'], string, string, string, string];
    const onRunSocket = target.startsWith('TCP:') && target.endsWith(`:${clientPort}]`);
    if (onRunSocket) runFd ??= fd;
    if (onRunSocket || call === 'epoll_wait') parsed.push({ atEpochUs: Math.round(Number(seconds) * 1e6), call, fd, target, args, result: Number(result) });
  }
  // Second pass, now that the run's fd is known: epoll_wait counts when it reported that fd.
  const woke = runFd === undefined ? null : new RegExp(`u32=${runFd}\\b`);
  return parsed
    .filter((p) => (p.call === 'epoll_wait' ? woke?.test(p.args) : true))
    .map(({ atEpochUs, call, args, result }) => ({ atEpochUs, call, result, head: call === 'epoll_wait' ? '' : dataHead(call, args) }));
}

/** The escaped bytes strace printed for the call, as one string ("…" when strace cut them short). */
function dataHead(call: Syscall['call'], args: string): string {
  const strings = call === 'writev' ? [...args.matchAll(/iov_base="((?:[^"\\]|\\.)*)"(\.\.\.)?/g)] : [/^"((?:[^"\\]|\\.)*)"(\.\.\.)?/.exec(args)];
  return strings.map((m) => (m ? m[1]! + (m[2] ? '…' : '') : '')).join('');
}
