// The backend's observing port as the page sees it: opened at start (`npm start -- --observe`) or from
// the page's switch, its status and the session's connection list sent to every tab as they change (at
// most every STATUS_MS), the traces of the connections each tab draws sent as they grow (a big one less
// often), and the bundled clients (redis-py, the docs' Ruby benchmark) run through it on request.
import type { ObserveClient, ObserveStatus } from '../../trace/protocol/observe-protocol.ts';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { projectVersion } from '../support/project-root.ts';
import { measureHopCost } from './hop-cost.ts';
import { PYTHON, RUBY, runObserveClient } from './observe-clients.ts';
import type { ObserveLimits } from './observe-session.ts';
import { ObservingPort } from './observing-port.ts';

const STATUS_MS = 250;
/** A watched trace is sent again at most this often (ms); one of more than BIG_TRACE commands, at most every BIG_TRACE_MS. */
const TRACE_MS = 400;
const BIG_TRACE = 5000;
const BIG_TRACE_MS = 2000;
/** How long a stop waits for MONITOR's last lines (ms). */
const MONITOR_SETTLE_MS = 300;

export interface ObserveListener {
  status(status: ObserveStatus): void;
  trace(session: string, connection: number, trace: TraceDocument): void;
}

export interface ObserveHubOptions {
  /** The port given with --observe (null: a free one when the page opens it). */
  port: number | null;
  host?: string;
  allowRemote?: boolean;
  limits?: Partial<ObserveLimits>;
  /**
   * The key a real client's run (the redis-py button) may write, under a run namespace and its lease
   * (runs/leased-key.ts, handed in by the app: observe/ does not import runs/), so a key janitor deletes
   * it if this process dies mid-run. `release(deleted)` after the key is gone (or could not be deleted).
   */
  leasedKey: () => Promise<LeasedKey>;
}

/** One key of a run namespace, held by a lease for as long as a real client's run lasts. */
export interface LeasedKey {
  key: string;
  release(deleted: boolean): Promise<void>;
}

interface Watcher {
  listener: ObserveListener;
  session: string | null;
  connections: number[];
  /** What was last sent of each connection (a change count), and when. */
  sent: Map<number, { version: string; at: number }>;
}

export class ObserveHub {
  private port: ObservingPort | null = null;
  private opening: Promise<void> | null = null;
  private hop: ObserveStatus['hop'] = null;
  private measuringHop = false;
  /** MONITOR asked for (applied to the port when it opens). */
  private monitor = false;
  private delay = { rttMs: 0, jitterMs: 0 };
  private error: string | null = null;
  private clientRunning: ObserveClient | null = null;
  private clientMessage: string | null = null;
  private lastRun: ObserveStatus['lastRun'] = null;
  private readonly watchers = new Set<Watcher>();
  private lastStatus = '';
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisSession,
    private readonly options: ObserveHubOptions,
  ) {
    this.timer = setInterval(() => this.tick(), STATUS_MS);
    this.timer.unref();
  }

  /** Opens the port (once; a second call waits for the first) and measures its hop. */
  open(rttMs = this.delay.rttMs, jitterMs = this.delay.jitterMs): Promise<void> {
    this.delay = { rttMs, jitterMs };
    if (this.port) {
      this.port.setDelay(rttMs, jitterMs);
      return Promise.resolve();
    }
    this.opening ??= this.openPort().finally(() => (this.opening = null));
    return this.opening;
  }

  private async openPort(): Promise<void> {
    try {
      const port = await ObservingPort.open(() => this.redis.target, () => this.redis.info, {
        port: this.options.port ?? 0,
        ...(this.options.host ? { host: this.options.host } : {}),
        ...(this.options.allowRemote ? { allowRemote: true } : {}),
        ...(this.options.limits ? { limits: this.options.limits } : {}),
        recorder: { tool: 'pipescope', version: projectVersion(), runtime: `node ${process.version}` },
      });
      port.setDelay(this.delay.rttMs, this.delay.jitterMs);
      this.port = port;
      if (this.monitor) await port.setMonitor(true, this.redis.control);
      this.error = null;
      void this.measureHop();
    } catch (error) {
      this.error = (error as Error).message;
      throw error;
    } finally {
      this.tick(true);
    }
  }

  /** The proxy's cost per round trip, measured side by side; stamped on every connection accepted after. */
  async measureHop(): Promise<void> {
    if (this.measuringHop) return;
    this.measuringHop = true;
    this.tick(true);
    try {
      this.hop = await measureHopCost(this.redis.target, this.redis.info);
      this.port?.setHopCost(this.hop);
    } catch (error) {
      this.error = `the hop's cost could not be measured: ${(error as Error).message}`;
    } finally {
      this.measuringHop = false;
      this.tick(true);
    }
  }

  get url(): string | null {
    return this.port?.url ?? null;
  }

  async close(): Promise<void> {
    const port = this.port;
    this.port = null;
    await port?.close();
    this.tick(true);
  }

  /** MONITOR on the target, or off. */
  async setMonitor(on: boolean): Promise<void> {
    this.monitor = on;
    try {
      await this.port?.setMonitor(on, this.redis.control);
    } catch (error) {
      this.monitor = false;
      this.error = `MONITOR could not start: ${(error as Error).message}`;
    }
    this.tick(true);
  }

  setDelay(rttMs: number, jitterMs: number): void {
    this.delay = { rttMs, jitterMs };
    this.port?.setDelay(rttMs, jitterMs);
    this.tick(true);
  }

  /** Ends the session; its traces. */
  async stop(): Promise<{ session: string; traces: TraceDocument[] } | null> {
    if (!this.port) return null;
    await this.port.readKernelNow();
    // MONITOR's lines trail execution a little: give the last ones a moment to land.
    if (this.port.monitoring) await new Promise((resolve) => setTimeout(resolve, MONITOR_SETTLE_MS));
    const session = this.port.current.id;
    const { traces } = this.port.restart();
    this.tick(true);
    return { session, traces };
  }

  subscribe(listener: ObserveListener): () => void {
    const watcher: Watcher = { listener, session: null, connections: [], sent: new Map() };
    this.watchers.add(watcher);
    listener.status(this.status());
    return () => this.watchers.delete(watcher);
  }

  watch(listener: ObserveListener, session: string, connections: number[]): void {
    for (const watcher of this.watchers) {
      if (watcher.listener !== listener) continue;
      watcher.session = session;
      watcher.connections = [...new Set(connections)];
      watcher.sent.clear();
    }
    this.tick(true);
  }

  /**
   * Runs bundled client programs through the port (opening it first), one after the other; the outcome,
   * and the connections they made, go in the status (lastRun).
   */
  async runClients(clients: readonly ObserveClient[], n: number): Promise<void> {
    if (this.clientRunning) throw new Error(`${this.clientRunning} is still running`);
    await this.open();
    const port = this.port!;
    const session = port.current;
    const first = session.connectionCount + 1;
    const messages: string[] = [];
    let ok = true;
    for (const client of clients) {
      this.clientRunning = client;
      this.clientMessage = null;
      this.tick(true);
      const outcome = await this.runClient(port, client, n);
      ok &&= outcome.ok;
      messages.push(outcome.message);
    }
    this.clientRunning = null;
    this.clientMessage = messages.join(' ');
    const connections = Array.from({ length: Math.max(0, session.connectionCount - first + 1) }, (_, i) => first + i);
    this.lastRun = { id: (this.lastRun?.id ?? 0) + 1, session: session.id, clients: [...clients], connections, ok };
    this.tick(true);
  }

  private async runClient(port: ObservingPort, client: ObserveClient, n: number): Promise<{ ok: boolean; message: string }> {
    // The target's credentials, if any, go to the program in its environment: it signs in through the port itself.
    const target = new URL(this.redis.target.url);
    const through = new URL(port.url);
    through.username = target.username;
    through.password = target.password;
    let leased: LeasedKey;
    try {
      leased = await this.options.leasedKey();
    } catch (error) {
      return { ok: false, message: `${client} could not run: ${(error as Error).message}` };
    }
    const { key } = leased;
    try {
      const [interpreter, script, args] = client === 'redis-rb-ping'
        ? [RUBY, 'redis-rb-ping.rb', ['both', String(n)]]
        : [PYTHON, 'redis-py-pipeline.py', [client.replace('redis-py-', ''), String(n), key]];
      const run = await runObserveClient(interpreter, script, through.toString(), args);
      return { ok: true, message: run.lines.map((line) => describeRun(line)).join('; ') + '.' };
    } catch (error) {
      return { ok: false, message: `${client} could not run: ${(error as Error).message}` };
    } finally {
      const deleted = await this.redis.control.del(key).then(() => true, () => false);
      await leased.release(deleted).catch(() => undefined);
    }
  }

  status(): ObserveStatus {
    const port = this.port;
    const summary = port?.current.summary() ?? null;
    return {
      open: port !== null,
      ...(port ? { url: port.url } : {}),
      target: this.redis.target.address,
      configuredPort: this.options.port,
      rttMs: this.delay.rttMs,
      jitterMs: this.delay.jitterMs,
      hop: this.hop,
      measuringHop: this.measuringHop,
      monitor: this.port?.monitoring ?? false,
      session: summary,
      clientRunning: this.clientRunning,
      clientMessage: this.clientMessage,
      lastRun: this.lastRun,
      error: this.error,
    };
  }

  shutdown(): Promise<void> {
    clearInterval(this.timer);
    return this.close();
  }

  /** Sends the status when it changed, and each watched trace that grew and is due. */
  private tick(force = false): void {
    const status = this.status();
    const text = JSON.stringify(status);
    if (force || text !== this.lastStatus) {
      this.lastStatus = text;
      for (const watcher of this.watchers) watcher.listener.status(status);
    }
    const port = this.port;
    if (!port) return;
    const session = port.current;
    const now = Date.now();
    for (const watcher of this.watchers) {
      if (watcher.session !== session.id) continue;
      for (const connection of watcher.connections) {
        const recorder = session.recorderOf(connection);
        if (!recorder) continue;
        const { meta } = recorder;
        const chunks = recorder.chunkCounts;
        const version = `${recorder.commandCount}/${recorder.replyCount}/${chunks.fromClient}/${chunks.toClient}/${meta.closed}/${meta.kernelTcp ? 'k' : ''}`;
        const last = watcher.sent.get(connection);
        if (last?.version === version) continue;
        if (last && now - last.at < (recorder.commandCount > BIG_TRACE ? BIG_TRACE_MS : TRACE_MS)) continue;
        const trace = session.trace(connection);
        if (!trace) continue;
        watcher.sent.set(connection, { version, at: now });
        watcher.listener.trace(session.id, connection, trace);
      }
    }
  }
}

function describeRun(line: unknown): string {
  const l = line as { library?: string; version?: string; mode?: string; part?: string; n?: number; seconds?: number };
  return `${l.library ?? 'client'} ${l.version ?? ''} ${l.mode ?? l.part ?? ''}: ${l.n ?? '?'} commands in ${((l.seconds ?? 0) * 1000).toFixed(1)} ms (the client's own clock)`;
}
