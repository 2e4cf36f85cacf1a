// MONITOR for an observing session, when asked: a raw connection of its own to the target Redis, whose
// lines are handed, as they come, to the recorder of the observed connection that sent the command (by
// the address Redis sees: the proxy's side of that connection). Only each line's time and command name
// are kept, and only for observed connections; the rest are counted. Redis's clock is put on ours
// (server-clock.ts) when it starts, so each execution lands on the connection's own time axis.
import type { Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { alignServerClock, type ClockAlignment } from '../probes/server-clock.ts';
import { parseMonitorLine } from '../probes/monitor-probe.ts';
import { encode } from '../protocol/resp-encoder.ts';
import { handshakeCommands, openRawSocket, type RedisTarget } from '../redis/redis-target.ts';

export interface MonitorSink {
  /** The recorder of the connection Redis knows as `source` (host:port), if it is observed. */
  execution(source: string, atEpochUs: number, name: string): boolean;
}

export class ObserveMonitor {
  /** Lines of connections that are not observed (other clients, Pipescope's own). */
  others = 0;
  private pending = '';

  private constructor(
    private readonly socket: Socket,
    readonly clock: ClockAlignment,
  ) {}

  static async start(target: RedisTarget, control: Redis, sink: MonitorSink): Promise<ObserveMonitor> {
    const clock = await alignServerClock(control);
    const socket = await openRawSocket(target);
    const monitor = new ObserveMonitor(socket, clock);
    const handshake = handshakeCommands(target, { select: false });
    let answers = 0;
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.on('data', (chunk: Buffer) => {
        monitor.pending += chunk.toString('latin1');
        let end: number;
        while ((end = monitor.pending.indexOf('\r\n')) !== -1) {
          const line = monitor.pending.slice(0, end);
          monitor.pending = monitor.pending.slice(end + 2);
          if (answers <= handshake.length) {
            if (line.startsWith('-')) reject(new Error(`MONITOR refused: ${line.slice(1)}`));
            if (++answers === handshake.length + 1) resolve();
            continue;
          }
          const parsed = parseMonitorLine(line);
          if (parsed && !sink.execution(parsed.source, parsed.atEpochUs, parsed.args[0] ?? '')) monitor.others++;
        }
        // A line never longer than this is kept waiting for its end (MONITOR's lines are one per command).
        if (monitor.pending.length > 1024 * 1024) monitor.pending = '';
      });
      socket.write(Buffer.concat([...handshake, ['MONITOR']].map(encode)));
    });
    socket.on('error', () => undefined);
    return monitor;
  }

  stop(): void {
    this.socket.destroy();
  }
}
