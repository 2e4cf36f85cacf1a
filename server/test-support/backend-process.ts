// For tests that need the backend as users run it: `npm start`'s built entry point as its own process
// (so its event loop is not the test's), a WebSocket client that validates every message as the
// browser does, and the backend's memory as the kernel counts it (VmRSS). PIPESCOPE_BACKEND_ROOT
// points at another checkout's build, to measure an older version with the same test.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket, { type ClientOptions } from 'ws';
import { LIVE_PATH, ServerMessageSchema, type ServerMessage } from '../../trace/protocol/live-protocol.ts';
import { projectRoot } from '../support/project-root.ts';

export function backendRoot(): string {
  return process.env['PIPESCOPE_BACKEND_ROOT'] || projectRoot();
}

/** Compiles server/ (incremental: quick when nothing changed); returns the compiler's complaints. */
export function buildServer(): string {
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.server.json'], { cwd: backendRoot(), encoding: 'utf8' });
  return (build.stdout + build.stderr).split('\n').filter((line) => /error TS/.test(line)).join('\n');
}

export interface Backend {
  url: string;
  wsUrl: string;
  process: ChildProcess;
  /** Everything it printed, stdout and stderr. */
  output(): string;
  /** host:port of its private redis-server (from its start-up line), when it started one. */
  redisAddress: { host: string; port: number } | undefined;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after 10 s; resolves when it has exited. */
  stop(): Promise<void>;
}

export async function startBackend(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Backend> {
  const child = spawn('node', [join(backendRoot(), 'dist', 'node', 'server', 'app', 'main.js'), '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 30_000;
  while (!output.includes('Press Ctrl+C')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the backend did not start:\n${output}`);
    await sleep(20);
  }
  const url = /running at (\S+)/.exec(output)![1]!;
  const redis = /on ([\d.]+):(\d+) \(pid \d+\)/.exec(output);
  return {
    url,
    wsUrl: url.replace(/^http/, 'ws').replace(/\/$/, LIVE_PATH),
    process: child,
    output: () => output,
    redisAddress: redis ? { host: redis[1]!, port: Number(redis[2]) } : undefined,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** A process's resident memory (VmRSS), MB; NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Child processes of `pid` (from /proc), with their command lines. */
export function childrenOf(pid: number): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  const result = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  for (const line of result.stdout.split('\n')) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (match) found.push({ pid: Number(match[1]), command: match[2]! });
  }
  return found;
}

/** Every descendant of `pid`, children first. */
export function descendantsOf(pid: number): { pid: number; command: string }[] {
  const children = childrenOf(pid);
  return [...children, ...children.flatMap((child) => descendantsOf(child.pid))];
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits (polling) until `check` returns a value other than undefined; fails after timeoutMs. */
export async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** A /live client that validates and keeps every message (with the time it arrived), like the browser. */
export class LiveClient {
  readonly messages: { at: number; message: ServerMessage }[] = [];
  readonly socket: WebSocket;
  private waiters: (() => void)[] = [];

  /** `options`: e.g. { localAddress: '127.0.0.2' }, a second client address on loopback. */
  constructor(wsUrl: string, options: ClientOptions = {}) {
    this.socket = new WebSocket(wsUrl, options);
    this.socket.on('message', (data) => {
      this.messages.push({ at: performance.now(), message: ServerMessageSchema.parse(JSON.parse(data.toString())) });
      const waiters = this.waiters;
      this.waiters = [];
      waiters.forEach((wake) => wake());
    });
    this.socket.on('close', () => this.waiters.forEach((wake) => wake()));
  }

  static async open(wsUrl: string, options: ClientOptions = {}): Promise<LiveClient> {
    const client = new LiveClient(wsUrl, options);
    await new Promise((resolve, reject) => client.socket.once('open', resolve).once('error', reject));
    await client.next((m) => m.type === 'hello');
    return client;
  }

  send(message: unknown): number {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    return performance.now();
  }

  /** The first message (from index `from` on) that matches, waiting for it; with the time it arrived. */
  async nextAt(match: (m: ServerMessage) => boolean, from = 0, timeoutMs = 120_000): Promise<{ at: number; message: ServerMessage; index: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.messages.findIndex((entry, i) => i >= from && match(entry.message));
      if (index !== -1) return { ...this.messages[index]!, index };
      if (this.socket.readyState === WebSocket.CLOSED) throw new Error('the live connection closed');
      if (Date.now() > deadline) throw new Error(`timed out waiting for a message (last: ${JSON.stringify(this.messages.at(-1)?.message).slice(0, 300)})`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 1_000);
      });
    }
  }

  async next(match: (m: ServerMessage) => boolean, from = 0, timeoutMs?: number): Promise<ServerMessage> {
    return (await this.nextAt(match, from, timeoutMs)).message;
  }

  close(): void {
    this.socket.close();
  }
}

/** The p-th percentile (0–100) of already sorted numbers, nearest rank. */
export function percentileOf(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function median(values: number[]): number {
  return percentileOf([...values].sort((a, b) => a - b), 50);
}
