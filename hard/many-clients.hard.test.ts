// 100 WebSocket clients at once, each asking for a few mixed small runs one after another (seeded:
// commands, sizes, modes, engines, value sizes, a little added RTT, memory sampling on or off):
// every request completes, every run has a reply for each of its commands, no two runs were on Redis
// at the same time (MONITOR, Redis's own clock: each run connection's first and last command), the
// queue waits (request sent → its first run starts) as p50/p99, and the backend's memory afterwards.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { buildServer, LiveClient, median, rssMb, sleep, startBackend, type Backend } from '../server/test-support/backend-process.ts';
import { clientNames, figure, observe, requestEnd, runKeys, spread, tracesFor } from './hard-support.ts';

const CLIENTS = Number(process.env['HARD_CLIENTS'] ?? 100);
const REQUESTS_PER_CLIENT = 3;

let backend: Backend;
let observer: Redis;

beforeAll(async () => {
  expect(buildServer()).toBe('');
  backend = await startBackend();
  observer = await observe(backend.redisAddress!);
});

afterAll(async () => {
  observer?.disconnect();
  await backend?.stop();
});

/** A small seeded generator (mulberry32): the same mix every time. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mixedSpec(random: () => number): Record<string, unknown> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const command = pick(['PING', 'INCR', 'SET', 'GET'] as const);
  const rttMs = random() < 0.15 ? 1 : 0;
  const n = 1 + Math.floor(random() * (rttMs ? 100 : 1000));
  const modes = pick([['sequential'], ['pipeline'], ['sequential', 'pipeline'], ['chunked'], ['pipeline', 'chunked']]);
  return {
    command, n, modes, rttMs,
    valueBytes: pick([0, 16, 268]),
    engine: pick(['ioredis', 'raw']),
    memory: random() < 0.3,
    repeats: random() < 0.2 ? 3 : 1,
    ...(modes.includes('chunked') ? { chunk: 1 + Math.floor(random() * 100) } : {}),
  };
}

interface MonitorLine {
  atUs: number;
  source: string;
  args: string[];
}

it(`${CLIENTS} clients at once, ${REQUESTS_PER_CLIENT} mixed small requests each`, async () => {
  const pid = backend.process.pid!;
  await sleep(1_000);
  const baselineRss = rssMb(pid);
  const baselineClients = await clientNames(observer);

  // Redis's view, on its own clock: every command with the connection that sent it.
  const control = String(await observer.call('CLIENT', 'LIST')).split('\n').find((line) => / name=pipescope-control /.test(line));
  const controlAddress = /\baddr=(\S+)/.exec(control ?? '')?.[1];
  const monitor = await observer.duplicate().monitor();
  const lines: MonitorLine[] = [];
  monitor.on('monitor', (time: string, args: string[], source: string) => lines.push({ atUs: Math.round(Number(time) * 1e6), source, args }));

  const waits: number[] = [];
  const failures: string[] = [];
  let runs = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async (_, c) => {
    const random = seeded(c + 1);
    // Each client at an address of its own (127.0.x.y: all loopback), as a room's laptops are: the limits
    // per address are per person, and turns go by address.
    const client = await LiveClient.open(backend.wsUrl, { localAddress: `127.0.${1 + Math.floor(c / 250)}.${2 + (c % 250)}` });
    try {
      for (let r = 0; r < REQUESTS_PER_CLIENT; r++) {
        const requestId = `c${c}-r${r}`;
        const spec = mixedSpec(random);
        const sentAt = client.send({ type: 'run', requestId, spec });
        const firstRun = client.nextAt((m) => m.type === 'run-start' && m.requestId === requestId, 0, 600_000);
        const end = await requestEnd(client, requestId, 600_000);
        if (end.message.type !== 'request-done') {
          failures.push(`${requestId} ${JSON.stringify(spec)}: ${JSON.stringify(end.message)}`);
          continue;
        }
        waits.push((await firstRun).at - sentAt);
        for (const doc of tracesFor(client.messages.map((m) => m.message), requestId)) {
          runs++;
          const answered = doc.commands.filter((command) => 'reply' in command || 'error' in command).length;
          if (doc.commands.length !== doc.run.n || answered !== doc.run.n) failures.push(`${requestId} ${doc.run.mode}: ${answered} replies for ${doc.run.n} commands`);
          if (doc.run.command === 'SET' && doc.commands.some((command) => !('reply' in command) || command.reply !== 'OK')) failures.push(`${requestId}: a SET was not answered OK`);
        }
      }
    } finally {
      client.close();
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  await sleep(200);
  monitor.disconnect();
  expect(failures).toEqual([]);

  // No two runs overlapped: each run connection's commands (Redis's timestamps) form an interval, and the
  // intervals of different connections do not intersect. Pipescope's own control connection, memory
  // samplers and MONITOR connections are not run connections. The kernel reuses a closed connection's
  // local port within the test, so a connection is its address and its turn on it: a new one begins
  // where it opens (HELLO; ioredis's ready check INFO, then CLIENT SETNAME; the raw engine's CLIENT
  // SETNAME): every connection of Pipescope's names itself.
  const isNaming = (verb: string) => /^(CLIENT SETNAME|HELLO .*SETNAME) /.test(verb);
  const verbs = lines.map((line) => line.args.map((arg) => arg.toUpperCase()).join(' '));
  const bySource = new Map<string, number[]>();
  lines.forEach((line, i) => bySource.set(line.source, [...(bySource.get(line.source) ?? []), i]));
  const connectionOf = new Array<string>(lines.length);
  const notRuns = new Set<string>();
  for (const [source, indices] of bySource) {
    let turn = 0;
    let named = false;
    indices.forEach((index, k) => {
      const verb = verbs[index]!;
      // A connection's opening lines: HELLO, the ready check's INFO just before the name, the name.
      const readyCheck = /^INFO\b/.test(verb) && k + 1 < indices.length && isNaming(verbs[indices[k + 1]!]!);
      if ((/^HELLO\b/.test(verb) || readyCheck || isNaming(verb)) && named) {
        turn++;
        named = false;
      }
      if (isNaming(verb)) named = true;
      const connection = `${source}#${turn}`;
      connectionOf[index] = connection;
      if (/SETNAME PIPESCOPE-(MEMORY-|CONTROL)/.test(verb) || verb === 'MONITOR' || source === controlAddress) notRuns.add(connection);
    });
  }
  const intervals = new Map<string, { from: number; to: number; source: string; first: string }>();
  lines.forEach((line, index) => {
    const connection = connectionOf[index]!;
    if (notRuns.has(connection)) return;
    const interval = intervals.get(connection);
    if (interval) interval.to = line.atUs;
    else intervals.set(connection, { from: line.atUs, to: line.atUs, source: line.source, first: line.args.join(' ').slice(0, 60) });
  });
  const sorted = [...intervals.values()].sort((a, b) => a.from - b.from);
  let reach = sorted[0]!;
  const overlaps: string[] = [];
  for (const interval of sorted.slice(1)) {
    if (interval.from < reach.to) overlaps.push(`${interval.source} (${interval.first}) starts ${reach.to - interval.from} µs before ${reach.source} (${reach.first}) ends`);
    if (interval.to > reach.to) reach = interval;
  }
  expect(sorted.length).toBeGreaterThanOrEqual(runs);
  expect(overlaps).toEqual([]);

  await sleep(5_000);
  const afterRss = rssMb(pid);
  expect(await runKeys(observer)).toEqual([]);
  expect(await clientNames(observer)).toEqual(baselineClients);
  figure(`${CLIENTS} concurrent clients`, `${CLIENTS * REQUESTS_PER_CLIENT} requests, ${runs} runs, all complete with a reply per command, in ${seconds.toFixed(1)} s; ${sorted.length} run connections on Redis, 0 overlapping`);
  figure('queue wait (request sent → its first run starts)', `${spread(waits)}; median ${median(waits).toFixed(0)} ms`);
  figure(`backend RSS around the ${CLIENTS} clients (MB)`, `before ${baselineRss.toFixed(0)}, 5 s after ${afterRss.toFixed(0)}`);
  expect(afterRss).toBeLessThan(baselineRss + 150);
});
