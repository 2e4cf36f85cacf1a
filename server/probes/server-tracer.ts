// Server-side tracing for one run, when the user asks for it: aligns Redis's clock with ours, then
// two separate choices: MONITOR (execution order and times; cheap) and strace (Redis's read()/write()
// calls on the run's socket; slows Redis several-fold, so a loopback round trip is drawn much longer).
// Everything is started before t0 and turned into the trace's Redis side afterwards.
import type { Redis } from 'ioredis';
import type { ServerSide } from '../../trace/trace-builder.ts';
import { MonitorProbe, redisAddress, type MonitorLine } from './monitor-probe.ts';
import { alignServerClock, serverToTraceUs, type ClockAlignment } from './server-clock.ts';
import type { RedisTarget } from '../redis/redis-target.ts';
import { StraceProbe, straceAvailable } from './strace-probe.ts';

const OTHER_COMMAND_CHARS = 80;

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

  get monitorOn(): boolean {
    return this.monitor !== undefined;
  }

  get straceOn(): boolean {
    return this.strace !== undefined;
  }

  /**
   * The run's Redis side: `runSource` is the run connection's address as Redis sees it (the proxy's,
   * when there is one); its n MONITOR lines, in order, are the run's commands: `command` names each
   * (one name for all, or the name at each wire position, wire-layout.ts).
   */
  async finish(runSource: string, n: number, command: string | ((index: number) => string), t0: bigint, endUs: number): Promise<ServerSide> {
    const toTrace = (epochUs: number) => serverToTraceUs(epochUs, this.clock, t0);
    const executions = this.monitor ? await this.executions(this.monitor, runSource, n, command) : null;
    const controlSource = redisAddress(this.control.stream?.localAddress, this.control.stream?.localPort);
    const others = (this.monitor?.lines ?? [])
      .filter((line) => line.source !== runSource && toTrace(line.atEpochUs) >= 0 && toTrace(line.atEpochUs) <= endUs)
      .map((line) => ({
        atUs: toTrace(line.atEpochUs),
        source: line.source === controlSource ? `${line.source} (Pipescope control)` : line.source,
        command: line.args.join(' ').slice(0, OTHER_COMMAND_CHARS),
      }));
    const strace = this.strace;
    this.strace = undefined;
    const port = Number(runSource.slice(runSource.lastIndexOf(':') + 1));
    const calls = strace ? (await strace.stop(port)).map(({ atEpochUs, ...call }) => ({ atUs: toTrace(atEpochUs), ...call })) : null;
    return {
      trace: { clock: { ...this.clock }, others, syscalls: calls ? { source: 'strace', calls: calls.filter((c) => c.atUs >= 0) } : null },
      serverUs: executions && executions.map((line) => toTrace(line.atEpochUs)),
    };
  }

  /** The run connection's n MONITOR lines, in order: one per command, each the run's command. */
  private async executions(monitor: MonitorProbe, runSource: string, n: number, command: string | ((index: number) => string)): Promise<MonitorLine[]> {
    const nameAt = typeof command === 'string' ? () => command : command;
    await monitor.waitFor(runSource, n);
    const lines = monitor.linesFrom(runSource);
    if (lines.length !== n) throw new Error(`MONITOR saw ${lines.length} commands from the run's connection, expected ${n}.`);
    const mismatch = lines.findIndex((line, i) => line.args[0]?.toUpperCase() !== nameAt(i));
    if (mismatch !== -1) throw new Error(`MONITOR line ${mismatch} of the run is ${lines[mismatch]!.args[0]}, not ${nameAt(mismatch)}.`);
    return lines;
  }

  async stop(): Promise<void> {
    this.monitor?.stop();
    await this.strace?.abandon();
  }
}
