// Redis's own count of the socket reads and writes it processed, from INFO stats, read on a separate
// control connection before and after a run.
//
// Correcting for the probe's own INFO calls: Redis counts a read when it reads a request and a write
// when it writes a reply. INFO #1 reports a total that already includes its own request read, but its
// reply is written (and counted) after the snapshot; INFO #2's request read is counted before it
// reports. So the raw delta holds one extra read (INFO #2's) and one extra write (INFO #1's reply):
// subtract one of each. Commands: INFO #1 is counted once it has run, INFO #2 only after it reports,
// so the command delta is the run's commands plus one. server-counters.integration.test.ts checks all
// three on an empty run. One `INFO all` call reads stats and commandstats together (multi-section
// INFO needs Redis 7), so the correction holds on older servers too.
import type { Redis } from 'ioredis';
import { assertAllowed } from '../protocol/command-guard.ts';
import { parseInfo } from '../redis/info-fields.ts';

export interface ServerSnapshot {
  reads: number;
  writes: number;
  commands: number;
  /** Microseconds spent per command name (lower case), from INFO commandstats. */
  commandUsec: Map<string, number>;
  /**
   * Redis's CPU time so far (INFO cpu, getrusage; µs): its main thread's where Redis reports it apart
   * (used_cpu_*_main_thread), the whole process's otherwise. Undefined when INFO has no cpu section.
   */
  cpu?: { userUs: number; systemUs: number };
}

function numberField(fields: Map<string, string>, name: string): number {
  const value = Number(fields.get(name));
  if (!Number.isFinite(value)) throw new Error(`INFO stats has no ${name} (this Redis is too old or not Redis)`);
  return value;
}

export async function snapshotServer(control: Redis, namespace: string): Promise<ServerSnapshot> {
  return parseSnapshot(await readServerInfo(control, namespace));
}

/**
 * The INFO text alone, parsed later (parseSnapshot): the run's first snapshot is the last thing before
 * t0, and parsing its few hundred lines there would leave Redis idle meanwhile.
 */
export async function readServerInfo(control: Redis, namespace: string): Promise<string> {
  assertAllowed(namespace, 'INFO', ['all']);
  return control.info('all');
}

export function parseSnapshot(info: string): ServerSnapshot {
  const fields = parseInfo(info);
  const commandUsec = new Map<string, number>();
  for (const [name, value] of fields) {
    const usec = /(?:^|,)usec=(\d+)/.exec(value);
    if (name.startsWith('cmdstat_') && usec) commandUsec.set(name.slice('cmdstat_'.length), Number(usec[1]));
  }
  const seconds = (name: string) => Number(fields.get(`${name}_main_thread`) ?? fields.get(name));
  const user = seconds('used_cpu_user');
  const system = seconds('used_cpu_sys');
  return {
    ...(Number.isFinite(user) && Number.isFinite(system) ? { cpu: { userUs: Math.round(user * 1e6), systemUs: Math.round(system * 1e6) } } : {}),
    reads: numberField(fields, 'total_reads_processed'),
    writes: numberField(fields, 'total_writes_processed'),
    commands: numberField(fields, 'total_commands_processed'),
    commandUsec,
  };
}

export interface ServerDelta {
  reads: number;
  writes: number;
  /** Time Redis spent executing the run's wire commands (`command`: their names) between the snapshots. */
  execUs: number;
  /** True when the only commands Redis processed in between were the run's own. */
  exclusive: boolean;
}

/** Traffic Pipescope itself caused between the snapshots (the memory sampler's), to leave out. */
export interface OwnTraffic {
  reads: number;
  writes: number;
  commands: number;
}

const NO_TRAFFIC: OwnTraffic = { reads: 0, writes: 0, commands: 0 };

/**
 * `runCommands`: the commands Redis counts for the run (v3: a script's redis.call commands count, a
 * command refused while queueing does not). `command`: the name, or names, of the run's wire commands
 * whose time is the run's service time (EXEC's includes the commands it runs, EVAL's its script's).
 */
export function serverDelta(before: ServerSnapshot, after: ServerSnapshot, runCommands: number, command: string | readonly string[], own: OwnTraffic = NO_TRAFFIC): ServerDelta {
  const names = typeof command === 'string' ? [command] : command;
  const usec = (snapshot: ServerSnapshot) => names.reduce((sum, name) => sum + (snapshot.commandUsec.get(name.toLowerCase()) ?? 0), 0);
  return {
    reads: Math.max(0, after.reads - before.reads - 1 - own.reads),
    writes: Math.max(0, after.writes - before.writes - 1 - own.writes),
    execUs: Math.max(0, usec(after) - usec(before)),
    exclusive: after.commands - before.commands - 1 - own.commands === runCommands,
  };
}
