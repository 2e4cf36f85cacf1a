// The live feed's cost: bytes on the wire per command, counted on the TCP socket of a WebSocket client
// of the running app (everything it receives from its request to request-done: run events, start, end,
// memory samples), and the delay from a run's end to its complete trace drawn in the browser. The run
// ends at its last reply on the backend's client socket (the trace's startedAt + durationUs, wall
// clock); the browser's side is its own wall clock (timeOrigin + now) of the first frame with the
// whole panel drawn. Both clocks are this machine's. Each request is one run (repeats: 1): the figures
// are per run, and a request of K repeats is K such runs, one after another.
import type { Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import WebSocket from 'ws';
import { parseTrace } from '../trace/format/trace-io.ts';
import { LIVE_PATH, type ServerMessage } from '../trace/protocol/live-protocol.ts';
import type { CommandName } from '../trace/format/trace-format.ts';
import { newPage, openMoreOptions } from '../e2e/browser.ts';
import type { Finding } from './bench-report.ts';
import { drawnAtMs, instrumentPage, socketMessages } from './page-probes.ts';
import { spreadOf } from './side-by-side.ts';

export interface WireWorkload {
  command: CommandName;
  n: number;
  mode: 'sequential' | 'pipeline';
}

/** Bytes the client's TCP socket read for one run request, from sending it to request-done. */
export async function wireBytes(appUrl: string, workload: WireWorkload): Promise<number> {
  const url = `${appUrl.replace(/^http/, 'ws').replace(/\/$/, '')}${LIVE_PATH}`;
  const client = new WebSocket(url);
  let socket: Socket | undefined;
  client.on('upgrade', (response) => (socket = response.socket as Socket));
  const messages: ServerMessage[] = [];
  let wake: (() => void) | undefined;
  client.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as ServerMessage);
    wake?.();
  });
  const until = (done: (m: ServerMessage) => boolean) =>
    new Promise<ServerMessage>((resolve, reject) => {
      const check = () => {
        const found = messages.find(done);
        if (found) resolve(found);
      };
      wake = check;
      client.once('close', () => reject(new Error('The live socket closed')));
      check();
    });
  try {
    await until((m) => m.type === 'hello');
    const before = socket!.bytesRead;
    const requestId = `bench-${workload.mode}-${workload.command}-${workload.n}`;
    client.send(JSON.stringify({ type: 'run', requestId, spec: { command: workload.command, n: workload.n, modes: [workload.mode], repeats: 1 } }));
    const end = await until((m) => 'requestId' in m && m.requestId === requestId && (m.type === 'request-done' || m.type === 'error' || m.type === 'cancelled'));
    if (end.type !== 'request-done') throw new Error(`The run did not finish: ${JSON.stringify(end).slice(0, 200)}`);
    return socket!.bytesRead - before;
  } finally {
    client.close();
  }
}

export async function bytesPerCommandBench(appUrl: string, workloads: readonly WireWorkload[], repeats: number, log: (line: string) => void): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const workload of workloads) {
    const perCommand: number[] = [];
    for (let i = 0; i < repeats; i++) perCommand.push((await wireBytes(appUrl, workload)) / workload.n);
    const spread = spreadOf(perCommand);
    const what = `${workload.mode === 'pipeline' ? 'one pipeline of' : 'sequential'} ${workload.n.toLocaleString('en-US')} ${workload.command}`;
    log(`  ${what}: ${spread.median.toFixed(1)} bytes per command [${spread.min.toFixed(1)}–${spread.max.toFixed(1)}], ${repeats} runs`);
    findings.push({
      name: `WebSocket bytes per command, ${what}`,
      unit: 'bytes',
      spread,
      goal: { bound: 'at most', value: 40 },
      how: `TCP bytes read by a WebSocket client of the app from its run request (one run: repeats 1) to request-done (frames, headers, start/end messages, memory samples) ÷ commands`,
    });
  }
  return findings;
}

/** Run end (last reply at the backend's socket) → the complete trace drawn in the browser, per run. */
export async function liveDelayBench(browser: Browser, appUrl: string, n: number, runs: number, log: (line: string) => void): Promise<Finding[]> {
  const delays: number[] = [];
  const toRunEnd: number[] = [];
  for (let run = 0; run < runs; run++) {
    const page = await newPage(browser);
    try {
      await instrumentPage(page, n);
      await page.goto(appUrl);
      await page.locator('[data-testid=run]:not([disabled])').waitFor();
      await page.selectOption('[data-testid=command]', 'PING');
      await page.fill('[data-testid=n]', String(n));
      await page.selectOption('[data-testid=mode]', 'pipeline');
      await openMoreOptions(page);
      await page.selectOption('[data-testid=repeats]', '1');
      await page.click('[data-testid=run]');
      const drawn = await drawnAtMs(page);
      const origin = await page.evaluate(() => performance.timeOrigin);
      const runEnd = (await socketMessages(page)).find((m) => m.type === 'run-end');
      const download = page.waitForEvent('download');
      await page.locator(`[data-testid=run-panel][data-n="${n}"] button`, { hasText: 'Save' }).click();
      const doc = parseTrace(readFileSync(await (await download).path(), 'utf8'));
      const endedWallMs = Date.parse(doc.run.startedAt) + doc.totals.durationUs / 1000;
      delays.push(origin + drawn - endedWallMs);
      if (runEnd) toRunEnd.push(origin + runEnd.atMs - endedWallMs);
    } finally {
      await page.context().close();
    }
  }
  const delay = spreadOf(delays);
  log(`  ${runs} live runs of ${n.toLocaleString('en-US')} PINGs pipelined: run end → run-end message in the page ${spreadOf(toRunEnd).median.toFixed(0)} ms, → complete trace drawn ${delay.median.toFixed(0)} ms [${delay.min.toFixed(0)}–${delay.max.toFixed(0)}]`);
  return [
    {
      name: `run end → complete trace drawn in the browser, ${n.toLocaleString('en-US')} commands`,
      unit: 'ms',
      spread: delay,
      goal: { bound: 'at most', value: 200 },
      how: `${runs} live runs from the app's form (repeats 1): the trace's startedAt + durationUs (backend wall clock) → the page's first frame with every command drawn (timeOrigin + now)`,
    },
  ];
}
