#!/usr/bin/env node
// Records the static site's traces: each one a real run of `npm run record` (server/app/record-cli.ts)
// against a private redis-server (the CLI starts one when no --redis-url is given), written to
// public/traces/<file>.json.gz (the served form: compact and gzipped, trace/format/compact-trace.ts), then public/traces/index.json (format pipescope-trace-index v1) with each file's
// provenance read back from the document itself (Redis version, client, runtime, start time, the delay
// proxy's added RTT) and from this machine (os: platform, arch, cores × CPU model), and the exact command.
// The static site's landing page lists the index (web/src/state/trace-index.ts parses it).
//
//   node scripts/record-static-traces.mjs [--only FILE-PREFIX | --index-only]
//
// --only re-records the files whose names start with the prefix; --index-only rewrites index.json alone
// (after editing a title or sentence below). Either way the index lists every recording.
//
// Run it on a quiet machine: every figure in the traces is what this machine measured.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'public', 'traces');
const { values } = parseArgs({ options: { only: { type: 'string' }, 'index-only': { type: 'boolean' } } });

/**
 * What is recorded. Runs meant to be compared share a group: the landing page offers them side by side
 * (several ?trace= in one link) as well as one by one.
 */
const RECORDINGS = [
  {
    group: 'Sequential against pipelined, on loopback',
    file: 'incr-10-sequential.json.gz',
    title: '10 INCR, one at a time',
    about: 'Each INCR waits for its reply before the next is written: ten round trips.',
    args: ['--mode', 'sequential', '--command', 'INCR', '--n', '10', '--monitor'],
  },
  {
    group: 'Sequential against pipelined, on loopback',
    file: 'incr-10-pipeline.json.gz',
    title: '10 INCR in one pipeline',
    about: 'The ten INCR are written together and their replies awaited together: one round trip instead of ten.',
    args: ['--mode', 'pipeline', '--command', 'INCR', '--n', '10', '--monitor'],
  },
  {
    group: 'The same with 20 ms of added round-trip time',
    file: 'incr-10-sequential-rtt-20ms.json.gz',
    title: '10 INCR one at a time, 20 ms RTT',
    about: 'Through Pipescope’s delay proxy each round trip costs 20 ms more, and a sequential run pays it ten times.',
    args: ['--mode', 'sequential', '--command', 'INCR', '--n', '10', '--rtt-ms', '20'],
  },
  {
    group: 'The same with 20 ms of added round-trip time',
    file: 'incr-10-pipeline-rtt-20ms.json.gz',
    title: '10 INCR in one pipeline, 20 ms RTT',
    about: 'The pipeline pays the added 20 ms once.',
    args: ['--mode', 'pipeline', '--command', 'INCR', '--n', '10', '--rtt-ms', '20'],
  },
  {
    group: 'What Redis saw (MONITOR and strace)',
    file: 'incr-10-sequential-server-trace.json.gz',
    title: '10 INCR one at a time, traced in Redis',
    about: 'MONITOR times each execution in Redis and strace records redis-server’s read() and write() calls as the commands arrive one by one.',
    args: ['--mode', 'sequential', '--command', 'INCR', '--n', '10', '--server-trace'],
  },
  {
    group: 'What Redis saw (MONITOR and strace)',
    file: 'incr-10-pipeline-server-trace.json.gz',
    title: '10 INCR in one pipeline, traced in Redis',
    about: 'The same ten commands, traced the same way: see how few read() and write() calls Redis needs when they come together.',
    args: ['--mode', 'pipeline', '--command', 'INCR', '--n', '10', '--server-trace'],
  },
  {
    group: 'Memory: one big pipeline against chunks',
    file: 'get-300-pipeline-memory.json.gz',
    title: '300 GET of 10 kB values in one pipeline',
    about: 'All 300 requests are written at once; see what memory Redis held for the run’s connection (CLIENT LIST) and the client’s heap meanwhile.',
    args: ['--mode', 'pipeline', '--command', 'GET', '--n', '300', '--value-bytes', '10000'],
  },
  {
    group: 'Memory: one big pipeline against chunks',
    file: 'get-300-chunked-memory.json.gz',
    title: '300 GET of 10 kB values in pipelines of 30',
    about: 'The same 300 GET, each chunk’s replies awaited before the next 30 are written: compare the memory and the time with one pipeline.',
    args: ['--mode', 'pipeline', '--chunk', '30', '--command', 'GET', '--n', '300', '--value-bytes', '10000'],
  },
  {
    group: 'A long pipeline',
    file: 'ping-1000-pipeline.json.gz',
    title: '1,000 PING in one pipeline',
    about: 'A thousand commands, too many to draw one arrow each: the diagram shows where the bytes went and when.',
    args: ['--mode', 'pipeline', '--command', 'PING', '--n', '1000'],
  },
  {
    group: 'A Redis Cluster: the pipeline split by node',
    file: 'cluster-set-30-sequential.json.gz',
    title: '30 SET one at a time on a 3-master cluster',
    about: 'Each SET goes to the master serving its key’s slot, over that node’s socket, and waits for its reply: thirty round trips, spread over three nodes.',
    args: ['--cluster', '--engine', 'raw', '--mode', 'sequential', '--command', 'SET', '--n', '30', '--no-memory'],
  },
  {
    group: 'A Redis Cluster: the pipeline split by node',
    file: 'cluster-set-30-pipeline.json.gz',
    title: '30 SET in one pipeline split over 3 masters',
    about: 'The keys hash to slots on all three masters: the pipeline is split by node, each share written on its own socket at once, and the nodes answer in parallel.',
    args: ['--cluster', '--engine', 'raw', '--mode', 'pipeline', '--command', 'SET', '--n', '30', '--no-memory'],
  },
  {
    group: 'A long pipeline on a cluster',
    file: 'cluster-set-1000-pipeline.json.gz',
    title: '1,000 SET in one pipeline split over 3 masters',
    about: 'A thousand keys over about a thousand slots: each master gets its share on its own socket; the slot strip shows which slots the run used.',
    args: ['--cluster', '--engine', 'raw', '--mode', 'pipeline', '--command', 'SET', '--n', '1000', '--no-memory'],
  },
  {
    group: 'A Redis Cluster: a slot moved during the run',
    file: 'cluster-get-150-reshard.json.gz',
    title: '150 GET one at a time while their slot moves to another master',
    about: 'Pipescope moves the key’s slot during the run: once the key has left, its node answers ASK and the GET goes to the new owner after ASKING; once the move is done, one MOVED, and every GET after it goes straight to the new owner.',
    args: ['--cluster', '--engine', 'raw', '--mode', 'sequential', '--command', 'GET', '--n', '150', '--no-memory', '--reshard'],
  },
];

/** "Linux x64, 2 × Intel(R) Xeon(R) …": where the runs were measured (client and Redis on one machine). */
function machineText() {
  const list = cpus();
  const os = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' }[platform()] ?? platform();
  return `${os} ${arch()}, ${list.length} × ${list[0]?.model.trim() ?? 'unknown CPU'}`;
}

function record(entry) {
  const out = join(outDir, entry.file);
  const args = ['run', '-s', 'record', '--', ...entry.args, '--out', out];
  console.log(`[record-static-traces] npm ${args.join(' ')}`);
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`[record-static-traces] recording ${entry.file} failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
}

/** The recorded document, read back through the same parser as the app (the CLI's build of trace/). */
async function readRecorded(file) {
  const { parseDocument } = await import(pathToFileURL(join(root, 'dist', 'node', 'trace', 'format', 'sweep-io.js')).href);
  return parseDocument(gunzipSync(readFileSync(join(outDir, file))).toString('utf8')).doc;
}

function indexEntry(entry, machine, doc) {
  return {
    file: entry.file,
    title: entry.title,
    about: entry.about,
    group: entry.group,
    provenance: {
      redis: doc.redis.version,
      client: doc.recorder.client,
      runtime: doc.recorder.runtime,
      machine,
      recordedAt: doc.run.startedAt,
      addedDelayMs: doc.rtt.addedMs,
      command: `npm run record -- ${entry.args.join(' ')} --out public/traces/${entry.file}`,
    },
  };
}

/** file → machine, from the index written last time (none: an empty map). */
function previousMachines() {
  try {
    const old = JSON.parse(readFileSync(join(outDir, 'index.json'), 'utf8'));
    return new Map(old.traces.map((t) => [t.file, t.provenance.machine]));
  } catch {
    return new Map();
  }
}

mkdirSync(outDir, { recursive: true });
const machine = machineText();
const chosen = values['index-only'] ? [] : RECORDINGS.filter((entry) => !values.only || entry.file.startsWith(values.only));
for (const entry of chosen) record(entry);
// The index always lists every recording; one not re-recorded now keeps the machine it was recorded on.
const previous = previousMachines();
const index = {
  format: 'pipescope-trace-index',
  version: 1,
  traces: await Promise.all(RECORDINGS.map(async (entry) =>
    indexEntry(entry, chosen.includes(entry) ? machine : (previous.get(entry.file) ?? machine), await readRecorded(entry.file)))),
};
writeFileSync(join(outDir, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
const bytes = RECORDINGS.reduce((sum, entry) => sum + statSync(join(outDir, entry.file)).size, 0);
console.log(`[record-static-traces] ${RECORDINGS.length} traces, ${(bytes / 1024).toFixed(0)} KiB in public/traces/; index.json written`);
