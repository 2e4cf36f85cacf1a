// Server-side tracing for one run, when the user asks for it: aligns Redis's clock with ours, watches
// execution with MONITOR, and (added by the strace probe where possible) the kernel calls on the
// run's socket. Everything is started before t0 and turned into the trace's Redis side afterwards.
import type { Redis } from 'ioredis';
import type { ServerSide } from '../../trace/trace-builder.ts';
import { MonitorProbe, redisAddress } from './monitor-probe.ts';
import { alignServerClock, serverToTraceUs, type ClockAlignment } from './server-clock.ts';
import type { RedisTarget } from '../redis/redis-target.ts';
import { StraceProbe, straceAvailable } from './strace-probe.ts';

const OTHER_COMMAND_CHARS = 80;

export class ServerTracer {
  private constructor(
    private readonly control: Redis,
    private readonly clock: ClockAlignment,
    private readonly monitor: MonitorProbe,
    private strace: StraceProbe | undefined,
  ) {}

  /** strace needs the redis-server's pid, so it is only used on Pipescope's own (local) Redis. */
  static async start(control: Redis, target: RedisTarget): Promise<ServerTracer> {
    const clock = await alignServerClock(control);
    const monitor = await MonitorProbe.start(target);
    const redisPid = target.pid;
    const strace = redisPid && straceAvailable() ? await StraceProbe.attach(redisPid).catch(() => undefined) : undefined;
    return new ServerTracer(control, clock, monitor, strace);
  }

  get straceOn(): boolean {
    return this.strace !== undefined;
  }

  /**
   * The run's Redis side: `runSource` is the run connection's address as Redis sees it (the proxy's,
   * when there is one); its n MONITOR lines, in order, are the run's commands.
   */
  async finish(runSource: string, n: number, command: string, t0: bigint, endUs: number): Promise<ServerSide> {
    await this.monitor.waitFor(runSource, n);
    const lines = this.monitor.linesFrom(runSource);
    if (lines.length !== n) throw new Error(`MONITOR saw ${lines.length} commands from the run's connection, expected ${n}.`);
    const mismatch = lines.findIndex((line) => line.args[0]?.toUpperCase() !== command);
    if (mismatch !== -1) throw new Error(`MONITOR line ${mismatch} of the run is ${lines[mismatch]!.args[0]}, not ${command}.`);
    const toTrace = (epochUs: number) => serverToTraceUs(epochUs, this.clock, t0);
    const controlSource = redisAddress(this.control.stream?.localAddress, this.control.stream?.localPort);
    const others = this.monitor.lines
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
      serverUs: lines.map((line) => toTrace(line.atEpochUs)),
    };
  }

  async stop(): Promise<void> {
    this.monitor.stop();
    await this.strace?.abandon();
  }
}
