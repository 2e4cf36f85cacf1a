// The page's side of observing its user's own client (views/observe/observe-view.tsx): the observing port's
// status and the session's connections as the backend reports them, the connections this tab draws
// (at most MAX_DRAWN), their traces as they grow, and the sessions stopped here. Drawn traces go to
// the run store, so the one set of views draws them (sequence diagram, wire view, phases, table).
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import type { ObserveClient, ObserveStatus } from '../../../trace/protocol/observe-protocol.ts';
import type { RunSpec } from '../../../trace/format/run-request.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import { SnapshotStore } from '../base/snapshot-store.ts';
import type { ChannelPort } from './live-channel.ts';
import type { RunStore } from './run-store.ts';

export const MAX_DRAWN = 6;

export interface ObserveSnapshot {
  status: ObserveStatus | null;
  /** The connections of the current session this tab draws, in the order picked. */
  drawn: readonly number[];
  /** Their latest traces, by connection. */
  traces: ReadonlyMap<number, TraceDocument>;
  /** A session stopped from this tab: its traces, kept until the next one. */
  stopped: { session: string; traces: readonly TraceDocument[] } | null;
  error: string | null;
}

export class ObserveStore {
  private readonly state: SnapshotStore<ObserveSnapshot>;
  /** A batch of real clients asked for: draw its connections when the status says it is done (lastRun.id above `after`). */
  private pendingRun: { after: number; beside: RunSpec | null } | null = null;
  /**
   * New connections are drawn as they send their first command, up to MAX_DRAWN, until the user picks
   * for themselves (ticks or unticks one) in this session; the ones already considered are not drawn again.
   */
  private autoDraw = true;
  private readonly considered = new Set<number>();
  /** Whether the Observe view is on screen: only then do drawn connections take over the results (and new ones get drawn). */
  private shown = false;
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => ObserveSnapshot;

  constructor(
    private readonly channel: ChannelPort,
    private readonly runs: RunStore,
    scheduler: FrameScheduler = frameScheduler,
  ) {
    this.state = new SnapshotStore<ObserveSnapshot>({ status: null, drawn: [], traces: new Map(), stopped: null, error: null }, scheduler);
    this.subscribe = this.state.subscribe;
    this.getSnapshot = this.state.getSnapshot;
  }

  /** The Observe view is on screen (or not): its drawn connections go to the results only while it is. */
  setShown(shown: boolean): void {
    this.shown = shown;
    if (!shown) return;
    const { status } = this.state.getSnapshot();
    if (status) this.drawNewConnections(status);
    this.showDrawn();
  }

  attach(): () => void {
    return this.channel.listen({
      onConnection: () => undefined,
      onMessage: (message) => this.receive(message),
    });
  }

  open(rttMs: number, jitterMs: number): void {
    this.channel.send({ type: 'observe-open', rttMs, jitterMs });
  }

  close(): void {
    this.channel.send({ type: 'observe-close' });
  }

  setDelay(rttMs: number, jitterMs: number): void {
    this.channel.send({ type: 'observe-delay', rttMs, jitterMs });
  }

  setMonitor(on: boolean): void {
    this.channel.send({ type: 'observe-monitor', on });
  }

  stop(): void {
    this.channel.send({ type: 'observe-stop' });
  }

  /**
   * Runs real clients through the port, one after the other; the connections they make are drawn once
   * they are done, and with `beside`, Pipescope's own run of the same workload is drawn next to them.
   */
  runClients(clients: readonly ObserveClient[], n: number, beside?: RunSpec): void {
    this.pendingRun = { after: this.state.getSnapshot().status?.lastRun?.id ?? 0, beside: beside ?? null };
    this.channel.send({ type: 'observe-run-client', clients: [...clients], n });
  }

  /** Draws the observed traces and, once Pipescope's run of `spec` is done, its traces before them. */
  private runBeside(spec: RunSpec): void {
    const observed = this.drawnDocs();
    if (!this.runs.run(spec)) return;
    const stop = this.runs.subscribe(() => {
      const { active, traces, tracesSource } = this.runs.getSnapshot();
      if (active !== null || tracesSource !== 'live') return;
      stop();
      const own = traces.filter((d) => !d.run.observed);
      this.runs.showTraces([...own, ...observed].slice(0, MAX_DRAWN), 'live');
    });
  }

  /** Draws a connection, or stops drawing it (the user's pick: no more drawing by itself this session). */
  toggle(connection: number): void {
    this.autoDraw = false;
    const { drawn, status } = this.state.getSnapshot();
    const next = drawn.includes(connection) ? drawn.filter((c) => c !== connection) : [...drawn, connection].slice(-MAX_DRAWN);
    this.state.update({ drawn: next });
    if (status?.session) this.channel.send({ type: 'observe-watch', session: status.session.id, connections: next });
    this.showDrawn();
  }

  /** Draws these connections (replacing the ones drawn). */
  draw(connections: readonly number[]): void {
    const { status } = this.state.getSnapshot();
    const next = connections.slice(0, MAX_DRAWN);
    this.state.update({ drawn: next });
    if (status?.session) this.channel.send({ type: 'observe-watch', session: status.session.id, connections: [...next] });
    this.showDrawn();
  }

  /** Puts a stopped session's traces on screen (as a file's would be). */
  showStopped(): void {
    const stopped = this.state.getSnapshot().stopped;
    if (stopped && stopped.traces.length) this.runs.showTraces(stopped.traces.slice(0, MAX_DRAWN), 'live');
  }

  private receive(message: ServerMessage): void {
    if (message.type === 'observe-status') {
      const previous = this.state.getSnapshot();
      const sessionChanged = previous.status?.session?.id !== message.status.session?.id;
      this.state.update({
        status: message.status,
        error: message.status.error,
        ...(sessionChanged ? { drawn: [], traces: new Map() } : {}),
      });
      if (sessionChanged) {
        this.autoDraw = true;
        this.considered.clear();
      }
      this.drawNewConnections(message.status);
      const lastRun = message.status.lastRun;
      const pending = this.pendingRun;
      if (pending && lastRun && lastRun.id > pending.after) {
        this.pendingRun = null;
        if (lastRun.connections.length > 0 && lastRun.session === message.status.session?.id) {
          // What the user asked to run is what is drawn: the session's other connections are not drawn by themselves after it.
          message.status.session?.connections.forEach((c) => this.considered.add(c.connection));
          this.draw(lastRun.connections);
          if (pending.beside) this.waitForTracesThen(lastRun.connections, () => this.runBeside(pending.beside!));
        }
      }
      return;
    }
    if (message.type === 'observe-trace') {
      const { status, drawn, traces } = this.state.getSnapshot();
      if (status?.session?.id !== message.session || !drawn.includes(message.connection)) return;
      const next = new Map(traces);
      next.set(message.connection, message.trace);
      this.state.update({ traces: next });
      this.showDrawn(next);
      return;
    }
    if (message.type === 'observe-stopped') {
      this.state.update({ stopped: { session: message.session, traces: message.traces } });
      // What was drawn stays drawn, now as the stopped session's final traces.
      const { drawn } = this.state.getSnapshot();
      const final = message.traces.filter((d) => drawn.includes(d.run.observed!.connection));
      if (final.length && this.shown) this.runs.showTraces(final, 'live');
      return;
    }
    if (message.type === 'error' && message.message.startsWith('Observing:')) this.state.update({ error: message.message });
  }

  /** While drawing by itself: the connections that sent their first command since the last status, while room is left. */
  private drawNewConnections(status: ObserveStatus): void {
    if (!this.shown || !this.autoDraw || !status.session || this.pendingRun) return;
    const fresh = status.session.connections.filter((c) => c.commands > 0 && !this.considered.has(c.connection)).map((c) => c.connection);
    if (fresh.length === 0) return;
    fresh.forEach((c) => this.considered.add(c));
    const { drawn } = this.state.getSnapshot();
    const room = MAX_DRAWN - drawn.length;
    if (room > 0) this.draw([...drawn, ...fresh.slice(0, room)]);
  }

  /** Calls `then` once every one of `connections` has its trace here (they arrive within a tick or two). */
  private waitForTracesThen(connections: readonly number[], then: () => void): void {
    const stop = this.state.subscribe(() => {
      const { traces } = this.state.getSnapshot();
      if (!connections.every((c) => traces.has(c))) return;
      stop();
      then();
    });
  }

  private drawnDocs(): TraceDocument[] {
    const { drawn, traces } = this.state.getSnapshot();
    return drawn.map((c) => traces.get(c)).filter((d): d is TraceDocument => d !== undefined);
  }

  /** The drawn connections' traces, in the order picked, on screen. */
  private showDrawn(traces: ReadonlyMap<number, TraceDocument> = this.state.getSnapshot().traces): void {
    if (!this.shown) return;
    const docs = this.state.getSnapshot().drawn.map((c) => traces.get(c)).filter((d): d is TraceDocument => d !== undefined);
    if (docs.length) this.runs.showTraces(docs, 'live');
  }
}
