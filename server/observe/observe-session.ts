// One observing session: the connections recorded through the observing port from its start until it
// is stopped, and the limits that bound it (connections, bytes, commands, memory). A session that
// reaches a limit stops recording and says why; the connections it carries keep being forwarded, new
// ones are refused. Stopping a session turns each connection into its trace document.
import { observedTrace, clientLabel } from '../../trace/format/observed-trace.ts';
import type { HopCost, RedisInfo, TraceDocument } from '../../trace/format/trace-format.ts';
import type { RequestLimits } from '../protocol/resp-request-parser.ts';
import { ConnectionRecorder } from './connection-recorder.ts';

export interface ObserveLimits extends RequestLimits {
  /** Connections open at once through the port. */
  maxOpenConnections: number;
  /** Connections accepted in one session, in all. */
  maxSessionConnections: number;
  /** Bytes both ways recorded in one session. */
  maxSessionBytes: number;
  /** Commands recorded in one session. */
  maxSessionCommands: number;
  /** Memory the session's records may take, estimated (bytes). */
  maxSessionMemory: number;
}

export const DEFAULT_OBSERVE_LIMITS: ObserveLimits = {
  maxOpenConnections: 64,
  maxSessionConnections: 1000,
  maxSessionBytes: 1024 * 1024 * 1024,
  maxSessionCommands: 200_000,
  maxSessionMemory: 256 * 1024 * 1024,
  maxBulkBytes: 64 * 1024 * 1024,
};

/** One line of the session's connection list. */
export interface ConnectionSummary {
  connection: number;
  clientAddress: string;
  /** "redis-py 4.3.4", or who the client is when it did not say. */
  client: string;
  commands: number;
  replies: number;
  pushes: number;
  open: boolean;
  notes: string[];
}

export interface SessionSummary {
  id: string;
  startedAt: string;
  connections: ConnectionSummary[];
  commands: number;
  bytes: number;
  /** Connections refused (a limit, or a non-loopback client), and why the last one was. */
  refused: number;
  /** Why recording stopped, when a limit was reached. */
  full: string | null;
  notes: string[];
}

let sessions = 0;

export class ObserveSession {
  readonly id: string;
  readonly startedAt = new Date().toISOString();
  private readonly recorders: ConnectionRecorder[] = [];
  private readonly open = new Set<ConnectionRecorder>();
  private commands = 0;
  private bytes = 0;
  private memory = 0;
  private refused = 0;
  private full: string | null = null;
  private readonly notes: string[] = [];
  /** Bumped on every change, so that watchers know when to look again. */
  revision = 0;

  constructor(
    readonly limits: ObserveLimits,
    private readonly redis: () => RedisInfo,
    private readonly recorder: { tool: string; version: string; runtime: string },
    private readonly delay: () => { addedRttMs: number; jitterMs: number },
    private readonly hop: () => HopCost | null,
  ) {
    this.id = `obs${Date.now().toString(36)}${(++sessions).toString(36)}`;
  }

  /** A recorder for a new connection, or why it is refused. */
  admit(clientAddress: string): ConnectionRecorder | { refused: string } {
    const refusal = this.open.size >= this.limits.maxOpenConnections
      ? `${this.open.size} connections are open through the observing port, the most it carries at once`
      : this.recorders.length >= this.limits.maxSessionConnections
        ? `the session has recorded ${this.recorders.length.toLocaleString('en-US')} connections, its limit; start a new session`
        : this.full;
    if (refusal) return this.refuse(`refused a connection from ${clientAddress}: ${refusal}`);
    const { addedRttMs, jitterMs } = this.delay();
    const recorder: ConnectionRecorder = new ConnectionRecorder(
      {
        session: this.id, connection: this.recorders.length + 1, clientAddress, startedAt: new Date().toISOString(), redis: this.redis(), recorder: this.recorder,
        addedRttMs, jitterMs, hop: this.hop(),
      },
      this.limits,
      { grow: (bytes, commands) => this.grow(bytes, commands), fullReason: () => this.full ?? '' },
    );
    this.recorders.push(recorder);
    this.open.add(recorder);
    this.revision++;
    return recorder;
  }

  refuse(note: string): { refused: string } {
    this.refused++;
    // One note per kind of refusal is enough: 10,000 refused connections must not make 10,000 notes.
    const kind = note.replace(/from \S+/, '');
    if (!this.notes.some((n) => n.replace(/from \S+/, '') === kind) && this.notes.length < 20) this.notes.push(note);
    this.revision++;
    return { refused: note };
  }

  closed(recorder: ConnectionRecorder): void {
    recorder.closed();
    this.open.delete(recorder);
    this.revision++;
  }

  /** Counts bytes forwarded, both ways; false once the session is full. */
  countBytes(bytes: number): boolean {
    this.bytes += bytes;
    if (this.bytes > this.limits.maxSessionBytes) this.fill(`it carried more than ${mib(this.limits.maxSessionBytes)} (the session's byte limit)`);
    this.revision++;
    return this.full === null;
  }

  private grow(bytes: number, commands: number): boolean {
    this.memory += bytes;
    this.commands += commands;
    if (this.commands >= this.limits.maxSessionCommands) this.fill(`it recorded ${this.limits.maxSessionCommands.toLocaleString('en-US')} commands (the session's command limit)`);
    else if (this.memory > this.limits.maxSessionMemory) this.fill(`its records reached ${mib(this.limits.maxSessionMemory)} (the session's memory limit)`);
    this.revision++;
    return this.full === null;
  }

  private fill(reason: string): void {
    if (this.full) return;
    this.full = reason;
    this.notes.push(`recording stopped: ${reason}; new connections are refused, open ones still forwarded`);
    for (const recorder of this.open) recorder.cut(reason);
  }

  get isFull(): boolean {
    return this.full !== null;
  }

  get connectionCount(): number {
    return this.recorders.length;
  }

  get openCount(): number {
    return this.open.size;
  }

  summary(): SessionSummary {
    return {
      id: this.id,
      startedAt: this.startedAt,
      connections: this.recorders.map((r) => {
        const { meta } = r;
        return {
          connection: meta.connection,
          clientAddress: meta.clientAddress,
          client: meta.libName ? clientLabel(meta).replace(/ \(observed\)$/, '') : 'not named (no CLIENT SETINFO)',
          commands: r.commandCount,
          replies: r.replyCount,
          pushes: meta.pushCount,
          open: this.open.has(r),
          notes: meta.notes.slice(),
        };
      }),
      commands: this.commands,
      bytes: this.bytes,
      refused: this.refused,
      full: this.full,
      notes: this.notes.slice(),
    };
  }

  /** The connection's trace so far (null before its first whole command, or for an unknown number). */
  trace(connection: number): TraceDocument | null {
    const recorder = this.recorders[connection - 1];
    return recorder ? observedTrace(recorder.record) : null;
  }

  /** Every connection that sent a command, as trace documents, in the order accepted. */
  traces(): TraceDocument[] {
    return this.recorders.map((r) => observedTrace(r.record, true)).filter((d): d is TraceDocument => d !== null);
  }

  recorderOf(connection: number): ConnectionRecorder | undefined {
    return this.recorders[connection - 1];
  }

  get openRecorders(): ReadonlySet<ConnectionRecorder> {
    return this.open;
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toLocaleString('en-US')} MiB`;
}
