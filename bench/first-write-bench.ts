// How late a run's first command reaches the socket after t0: the write that carries it, as the socket
// probe time-stamps it (doc.writes[0].atUs, µs since t0). t0 is taken as the last step before the run
// calls its client, so this is the client's own path from that call to socket.write(), and nothing of
// Pipescope's set-up. Sequential INCR as the app runs it (executeRun with the app's defaults: memory
// sampling and kernel TCP figures on, a warm connection) and without memory sampling, on every engine,
// side by side in rounds. node-redis writes at the next setImmediate after the call, not in it (its
// queue is flushed once per tick), so its figure includes that hop: shown for information, no goal.
import type { Engine } from '../trace/format/run-request.ts';
import type { RedisSession } from '../server/redis/redis-session.ts';
import { executeRun } from '../server/runs/run-executor.ts';
import type { Finding } from './bench-report.ts';
import { sideBySide, spreadOf, type Variant } from './side-by-side.ts';

export interface FirstWriteOptions {
  /** INCRs per run (the app's form defaults to 10). */
  n: number;
  rounds: number;
}

/** The goals for the app's default options, by engine (µs); null: information only. */
const GOALS_US: Record<Engine, number | null> = { ioredis: 50, raw: 20, 'node-redis': null };

interface Setting {
  engine: Engine;
  memory: boolean;
}

const SETTINGS: Setting[] = [
  { engine: 'ioredis', memory: true },
  { engine: 'ioredis', memory: false },
  { engine: 'raw', memory: true },
  { engine: 'raw', memory: false },
  { engine: 'node-redis', memory: true },
  { engine: 'node-redis', memory: false },
];

const nameOf = ({ engine, memory }: Setting) => `${engine}${memory ? '' : ', no memory'}`;

export async function firstWriteBench(session: RedisSession, { n, rounds }: FirstWriteOptions, log: (line: string) => void): Promise<Finding[]> {
  const variants: Variant[] = SETTINGS.map((setting) => ({
    name: nameOf(setting),
    measure: async () => {
      const doc = await executeRun(session, 'sequential', { command: 'INCR', n, valueBytes: 0, engine: setting.engine, memory: setting.memory, kernelTcp: true });
      const first = doc.writes[0];
      if (!first || first.firstCommand !== 0) throw new Error('The run recorded no write carrying its first command');
      return first.atUs;
    },
  }));
  const samples = await sideBySide(variants, rounds);
  const findings: Finding[] = [];
  for (const setting of SETTINGS) {
    const spread = spreadOf(samples[nameOf(setting)]!);
    const options = setting.memory ? "app's defaults" : 'memory sampling off';
    log(`  ${setting.engine.padEnd(10)} ${options.padEnd(19)} first write ${spread.median.toFixed(0)} µs after t0 [${spread.min.toFixed(0)}–${spread.max.toFixed(0)}]`);
    findings.push({
      name: `first command's write − t0, sequential INCR, ${setting.engine} engine${setting.memory ? '' : ', no memory sampling'}`,
      unit: 'us',
      spread,
      // The goals are for what the app runs; without sampling is shown beside it, for what sampling costs.
      goal: setting.memory && GOALS_US[setting.engine] !== null ? { bound: 'at most', value: GOALS_US[setting.engine]! } : null,
      how: `doc.writes[0].atUs of executeRun(sequential, ${n} × INCR, warm, kernelTcp on, memory ${setting.memory ? 'on' : 'off'}), ` +
        `${rounds} rounds side by side with the other engines and sampling settings`,
    });
  }
  return findings;
}
