// Server-side tracing for one run, when the user asks for it: aligns Redis's clock with ours, then
// two separate choices: MONITOR (execution order and times; cheap) and strace (Redis's read()/write()
// calls on the run's socket; slows Redis several-fold, so a loopback round trip is drawn much longer).
// Everything is started before t0 and turned into the trace's Redis side afterwards.
import type { Redis } from 'ioredis';
import type { ServerSide } from '../../trace/format/trace-builder.ts';
import { MONITOR_HOLD_BYTES, MonitorProbe, redisAddress, type MonitorLine } from './monitor-probe.ts';
import { alignServerClock, serverToTraceUs, type ClockAlignment } from './server-clock.ts';
import type { RedisTarget } from '../redis/redis-target.ts';
import { StraceProbe, straceAvailable } from './strace-probe.ts';

const OTHER_COMMAND_CHARS = 80;
/** How MONITOR names the client of a script's redis.call commands (`[0 lua]`). */
const LUA_SOURCE = 'lua';

/** The run's wire commands as MONITOR should show them (protocol/mode-plan.ts executionsOf, trace/format/wire-layout.ts). */
export interface ExpectedWire {
  /** Lines of the run's connection before its own (the warm-up's tail, sent after MONITOR began). */
  before?: number;
  n: number;
  /** Upper-case name of wire command i. */
  name(index: number): string;
  executed(index: number): boolean;
  executedCount: number;
}

export class ServerTracer {
  private constructor(
    private readonly control: Redis,
    private readonly clock: ClockAlignment,
    private readonly monitor: MonitorProbe | undefined,
    private strace: StraceProbe | undefined,
  ) {}

  /** strace needs the redis-server's pid, so it is only used on Pipescope's own (local) Redis. */
  static async start(control: Redis, target: RedisTarget, probes: { monitor: boolean; strace: boolean }): Promise<ServerTracer> {
    const clock = await alignServerClock(control);
    const monitor = probes.monitor ? await MonitorProbe.start(target) : undefined;
    const redisPid = target.pid;
    const strace = probes.strace && redisPid && straceAvailable() ? await StraceProbe.attach(redisPid).catch(() => undefined) : undefined;
    return new ServerTracer(control, clock, monitor, strace);
  }

  /**
   * From the end of the set-up (before the warm-up's tail and t0): MONITOR's connection is not read
   * until release(), when the lines the run and its tail may leave unread (`lineBytes`, at most) fit
   * MONITOR_HOLD_BYTES; otherwise it is read as the run goes. Returns whether it was held.
   */
  holdMonitor(lineBytes: number): boolean {
    if (!this.monitor || lineBytes > MONITOR_HOLD_BYTES) return false;
    this.monitor.hold();
    return (this.held = true);
  }

  /** At t0: MONITOR's reading on the run's thread is timed from now (none while it is held). */
  startMonitorTiming(): void {
    this.monitor?.startTiming();
  }

  /** After the run's last reply (or once it has run for a flush interval): MONITOR is read again. */
  releaseMonitor(): void {
    if (this.held) this.monitor?.release();
    this.held = false;
  }

  /** µs spent reading MONITOR between startMonitorTiming() and now (0 while it was held). */
  monitorReadingUs(): number {
    return this.monitor?.stopTiming() ?? 0;
  }

  private held = false;

  get monitorOn(): boolean {
    return this.monitor !== undefined;
  }

  get straceOn(): boolean {
    return this.strace !== undefined;
  }

  /**
   * The run's Redis side: `runSource` is the run connection's address as Redis sees it (the proxy's,
   * when there is one); its MONITOR lines, in order, are the run's wire commands Redis executed
   * (`wire` says which: v3, a command refused while queueing or discarded by EXECABORT has no line,
   * and its serverUs is null). MONITOR prints a script's redis.call commands as `[… lua]` lines right
   * after the EVAL/EVALSHA line that ran them: they belong to that line's client, so the run's own
   * are not counted among other clients' commands. `ownSources`: Pipescope's other connections of the run
   * (address → what it is: the memory sampler, the held-connection probe's second connection), whose lines
   * are labelled as Pipescope's own like the control connection's.
   */
  async finish(runSource: string, wire: ExpectedWire, t0: bigint, endUs: number, ownSources: ReadonlyMap<string, string> = new Map()): Promise<ServerSide> {
    const toTrace = (epochUs: number) => serverToTraceUs(epochUs, this.clock, t0);
    const executions = this.monitor ? await this.executions(this.monitor, runSource, wire) : null;
    const controlSource = redisAddress(this.control.stream?.localAddress, this.control.stream?.localPort);
    let scriptSource = '';
    const others = (this.monitor?.lines ?? [])
      .map((line) => {
        const lua = line.source === LUA_SOURCE || line.source.endsWith(` ${LUA_SOURCE}`);
        if (!lua) scriptSource = line.source;
        return { line, source: lua ? scriptSource : line.source, lua };
      })
      .filter(({ line, source }) => source !== runSource && toTrace(line.atEpochUs) >= 0 && toTrace(line.atEpochUs) <= endUs)
      .map(({ line, source, lua }) => ({
        atUs: toTrace(line.atEpochUs),
        source: ownLabel(source, controlSource, ownSources) + (lua ? ' (lua)' : ''),
        command: line.args.join(' ').slice(0, OTHER_COMMAND_CHARS),
      }));
    const strace = this.strace;
    this.strace = undefined;
    const port = Number(runSource.slice(runSource.lastIndexOf(':') + 1));
    const calls = strace ? (await strace.stop(port)).map(({ atEpochUs, ...call }) => ({ atUs: toTrace(atEpochUs), ...call })) : null;
    return {
      trace: { clock: { ...this.clock }, others, syscalls: calls ? { source: 'strace', calls: calls.filter((c) => c.atUs >= 0) } : null },
      serverUs: executions && executions.map((line) => line && toTrace(line.atEpochUs)),
    };
  }

  /** Each wire command's MONITOR line, in order (null for one Redis did not execute), names checked. */
  private async executions(monitor: MonitorProbe, runSource: string, wire: ExpectedWire): Promise<(MonitorLine | null)[]> {
    const before = wire.before ?? 0;
    await monitor.waitFor(runSource, before + wire.executedCount);
    const lines = monitor.linesFrom(runSource).slice(before);
    if (lines.length !== wire.executedCount) throw new Error(`MONITOR saw ${lines.length} commands from the run's connection, expected ${wire.executedCount}.`);
    const executions = new Array<MonitorLine | null>(wire.n);
    let next = 0;
    for (let i = 0; i < wire.n; i++) {
      if (!wire.executed(i)) {
        executions[i] = null;
        continue;
      }
      const line = lines[next++]!;
      const name = wire.name(i);
      if (line.args[0]?.toUpperCase() !== name) throw new Error(`MONITOR line ${next - 1} of the run is ${line.args[0]}, not ${name} (wire command ${i}).`);
      executions[i] = line;
    }
    return executions;
  }

  async stop(): Promise<void> {
    this.monitor?.stop();
    await this.strace?.abandon();
  }
}

/** Pipescope's own connections, named as such among MONITOR's other clients: its control connection and the run's others. */
function ownLabel(source: string, controlSource: string, ownSources: ReadonlyMap<string, string>): string {
  if (source === controlSource) return `${source} (Pipescope control)`;
  const own = ownSources.get(source);
  return own ? `${source} (Pipescope ${own})` : source;
}
