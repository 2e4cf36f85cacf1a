import { describe, expect, it } from 'vitest';
import type { ClientMessage, ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import type { ObserveStatus } from '../../../trace/protocol/observe-protocol.ts';
import { observedTrace, type ObservedRecord } from '../../../trace/format/observed-trace.ts';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import type { ChannelPort, LiveListener } from './live-channel.ts';
import { ObserveStore } from './observe-store.ts';
import { RunStore } from './run-store.ts';

function setup() {
  const sent: ClientMessage[] = [];
  const listeners = new Set<LiveListener>();
  const channel: ChannelPort = {
    isOpen: true,
    send: (m) => (sent.push(m), true),
    listen: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const scheduler = new FrameScheduler(() => 0, () => {});
  const runs = new RunStore(channel, scheduler);
  const store = new ObserveStore(channel, runs, scheduler);
  store.attach();
  store.setShown(true);
  const deliver = (m: ServerMessage) => listeners.forEach((l) => l.onMessage(m));
  return { store, runs, sent, deliver };
}

function status(session: string, connections: number[], lastRun: ObserveStatus['lastRun'] = null): ObserveStatus {
  return {
    open: true, url: 'redis://127.0.0.1:6390', target: '127.0.0.1:6379', configuredPort: 6390, rttMs: 0, jitterMs: 0, hop: null, measuringHop: false, monitor: false,
    session: {
      id: session, startedAt: '2026-01-01T00:00:00.000Z', commands: 2, bytes: 40, refused: 0, full: null, notes: [],
      connections: connections.map((c) => ({ connection: c, clientAddress: `127.0.0.1:${5000 + c}`, client: 'not named', commands: 1, replies: 1, pushes: 0, open: false, notes: [] })),
    },
    clientRunning: null, clientMessage: null, lastRun, error: null,
  };
}

/** A real observed trace: one PING and its PONG. */
function trace(connection: number) {
  const record: ObservedRecord = {
    session: 's1', connection, clientAddress: `127.0.0.1:${5000 + connection}`, startedAt: '2026-01-01T00:00:00.000Z',
    redis: { version: '7', embedded: true, address: '127.0.0.1:6379' }, recorder: { tool: 'pipescope', version: 't', runtime: 'node' },
    addedRttMs: 0, jitterMs: 0, hop: null, protocol: 2, commands: ['PING'], commandBytes: [14], outcomes: [{ reply: 'PONG' }], replyBytes: [7],
    fromClient: [{ atUs: 0, bytes: 14, commands: 1 }], toServer: [{ atUs: 1, bytes: 14, commands: 1 }],
    fromServer: [{ atUs: 20, bytes: 7, replies: 1 }], toClient: [{ atUs: 21, bytes: 7, replies: 1 }],
    pushes: [], pushCount: 0, notes: [], kernelTcp: null, closed: true,
  };
  return observedTrace(record)!;
}

describe('ObserveStore', () => {
  it('draws each new connection by itself, until the user picks: then only what the user ticks', () => {
    const { store, sent, deliver } = setup();
    deliver({ type: 'observe-status', status: status('s1', [1]) });
    expect(store.getSnapshot().drawn).toEqual([1]);
    expect(sent.at(-1)).toEqual({ type: 'observe-watch', session: 's1', connections: [1] });
    store.toggle(1);
    deliver({ type: 'observe-status', status: status('s1', [1, 2]) });
    expect(store.getSnapshot().drawn).toEqual([]);
    store.toggle(2);
    expect(store.getSnapshot().drawn).toEqual([2]);
  });

  it('draws a connection: asks for its trace, and puts it in the run store as it comes', () => {
    const { store, runs, sent, deliver } = setup();
    deliver({ type: 'observe-status', status: status('s1', [1, 2]) });
    expect(store.getSnapshot().drawn).toEqual([1, 2]);
    store.toggle(1);
    expect(sent.at(-1)).toEqual({ type: 'observe-watch', session: 's1', connections: [2] });
    deliver({ type: 'observe-trace', session: 's1', connection: 2, trace: trace(2) });
    expect(runs.getSnapshot().traces.map((d) => d.run.observed!.connection)).toEqual([2]);
    // A trace of a connection not drawn, or of another session, is not shown.
    deliver({ type: 'observe-trace', session: 's1', connection: 1, trace: trace(1) });
    deliver({ type: 'observe-trace', session: 'old', connection: 2, trace: trace(2) });
    expect(runs.getSnapshot().traces).toHaveLength(1);
    store.toggle(2);
    expect(sent.at(-1)).toEqual({ type: 'observe-watch', session: 's1', connections: [] });
  });

  it('draws nothing over the results while the Observe view is not on screen', () => {
    const { store, runs, deliver } = setup();
    store.setShown(false);
    deliver({ type: 'observe-status', status: status('s1', [1]) });
    expect(store.getSnapshot().drawn).toEqual([]);
    expect(runs.getSnapshot().traces).toEqual([]);
    store.setShown(true);
    expect(store.getSnapshot().drawn).toEqual([1]);
  });

  it('a new session forgets what was drawn', () => {
    const { store, deliver } = setup();
    deliver({ type: 'observe-status', status: status('s1', [1]) });
    deliver({ type: 'observe-status', status: status('s2', []) });
    expect(store.getSnapshot().drawn).toEqual([]);
  });

  it('real clients run through the port: their connections are drawn once the status says they are done', () => {
    const { store, sent, deliver } = setup();
    deliver({ type: 'observe-status', status: status('s1', []) });
    store.runClients(['redis-py-transaction', 'redis-py-plain'], 10);
    expect(sent.at(-1)).toEqual({ type: 'observe-run-client', clients: ['redis-py-transaction', 'redis-py-plain'], n: 10 });
    deliver({ type: 'observe-status', status: status('s1', [1, 2], { id: 1, session: 's1', clients: ['redis-py-transaction', 'redis-py-plain'], connections: [1, 2], ok: true }) });
    expect(store.getSnapshot().drawn).toEqual([1, 2]);
    expect(sent.at(-1)).toEqual({ type: 'observe-watch', session: 's1', connections: [1, 2] });
  });
});
