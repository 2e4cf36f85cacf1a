#!/usr/bin/env node
// Records one request of the live endpoint — what the app's Run button sends, every run of it (each
// mode × repeats, interleaved) — into one trace file per run, for fixtures that need a request's
// repeats (the record CLI writes only the median repeat). Uses the built trace code (dist/node/trace:
// `npx tsc -p tsconfig.server.json` first), so each file is exactly the trace the browser builds.
//
//   node scripts/record-live-request.mjs --url http://127.0.0.1:7391/ --out DIR --name PREFIX [--spec JSON]
//
// --spec is a RunSpec (defaults filled in by the schema; default: the app's default form, INCR × 10,
// sequential vs pipeline). Files: DIR/PREFIX-<mode>-r<repeat>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = (name) => import(join(root, 'dist', 'node', 'trace', name));
const { TraceBuilder } = await built('trace-builder.js');
const { decodeBatch, finishRun, ServerMessageSchema, LIVE_PATH } = await built('live-protocol.js');
const { RunSpecSchema } = await built('run-request.js');
const { serializeTrace } = await built('trace-io.js');

const { values } = parseArgs({ options: { url: { type: 'string' }, out: { type: 'string' }, name: { type: 'string' }, spec: { type: 'string' } } });
if (!values.url || !values.out || !values.name) {
  console.error('usage: record-live-request.mjs --url http://host:port/ --out DIR --name PREFIX [--spec JSON]');
  process.exit(2);
}
const spec = RunSpecSchema.parse(JSON.parse(values.spec ?? '{"command":"INCR","n":10,"modes":["sequential","pipeline"]}'));
const live = new URL(LIVE_PATH, values.url.replace(/^http/, 'ws'));
const requestId = `record-${Date.now().toString(36)}`;
mkdirSync(values.out, { recursive: true });

const socket = new WebSocket(live);
const builders = new Map();
const written = [];
await new Promise((resolve, reject) => {
  socket.on('open', () => socket.send(JSON.stringify({ type: 'run', requestId, spec })));
  socket.on('error', reject);
  socket.on('message', (data) => {
    const message = ServerMessageSchema.parse(JSON.parse(data.toString()));
    if (!('requestId' in message) || message.requestId !== requestId) return;
    if (message.type === 'run-start') builders.set(message.run.id, new TraceBuilder(message));
    else if (message.type === 'run-events') builders.get(message.runId).addBatch(decodeBatch(message));
    else if (message.type === 'run-end') {
      const doc = finishRun(builders.get(message.runId), message);
      const file = join(values.out, `${values.name}-${doc.run.mode}-r${doc.run.repeat}.json`);
      writeFileSync(file, serializeTrace(doc));
      written.push(`${file}: ${doc.run.mode} repeat ${doc.run.repeat}, ${doc.totals.durationUs} µs`);
    } else if (message.type === 'request-done') resolve();
    else if (message.type === 'error' || message.type === 'cancelled') reject(new Error(message.type === 'error' ? message.message : 'cancelled'));
  });
});
socket.close();
console.log(written.join('\n'));
