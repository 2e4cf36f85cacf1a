// The sockets a client library opens while it connects to a whole cluster, found by a mark in their
// options. node-redis's cluster client (createCluster) opens one socket to discover the slots, then
// one per master, over several turns of the event loop, and keeps each private; captured-socket.ts's
// one-synchronous-call capture cannot see them. But node-redis hands its socket options, spread into
// a new object, to node:net's createConnection (or node:tls's connect) for every node — checked for
// node-redis 6.3 (client/socket.js, #createSocketFactory) — so an option Node ignores, set in the
// cluster's defaults, comes through: while a capture is open, the factories are wrapped, and a socket
// whose options carry this capture's mark is kept. Any other socket made meanwhile (another client,
// the housekeeping connections) carries no mark and is left alone.
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

const require = createRequire(import.meta.url);

type Factory = (...args: unknown[]) => Socket;
/** The CommonJS module objects node-redis requires: the same objects, so a property set here is what it calls. */
const net = require('node:net') as { createConnection: Factory; connect: Factory };
const tls = require('node:tls') as { connect: Factory };

/** The option node-redis passes through to createConnection, naming the capture. */
export const SOCKET_MARK = 'pipescopeCapture';

/** A socket kept by a capture, with the host:port it was asked to connect to. */
export interface MarkedSocket {
  socket: Socket;
  address: string;
}

const open = new Map<string, MarkedSocket[]>();
let originals: { createConnection: Factory; netConnect: Factory; tlsConnect: Factory } | undefined;

function wrap(original: Factory): Factory {
  return function (this: unknown, ...args: unknown[]): Socket {
    const socket = original.apply(this, args);
    const options = args[0];
    const mark = typeof options === 'object' && options !== null ? (options as Record<string, unknown>)[SOCKET_MARK] : undefined;
    if (typeof mark === 'string') {
      const { host, port } = options as { host?: unknown; port?: unknown };
      open.get(mark)?.push({ socket, address: `${String(host ?? 'localhost')}:${String(port ?? 6379)}` });
    }
    return socket;
  };
}

/**
 * Keeps every socket made with `{ [SOCKET_MARK]: mark }` in its options until the returned stop() is
 * called; stop() returns them in the order they were made. Captures may overlap (each its own mark).
 */
export function captureMarkedSockets(mark: string): () => MarkedSocket[] {
  if (open.has(mark)) throw new Error(`a socket capture for ${mark} is already open`);
  open.set(mark, []);
  if (!originals) {
    originals = { createConnection: net.createConnection, netConnect: net.connect, tlsConnect: tls.connect };
    net.createConnection = wrap(originals.createConnection);
    net.connect = wrap(originals.netConnect);
    tls.connect = wrap(originals.tlsConnect);
  }
  return () => {
    const sockets = open.get(mark) ?? [];
    open.delete(mark);
    if (open.size === 0 && originals) {
      net.createConnection = originals.createConnection;
      net.connect = originals.netConnect;
      tls.connect = originals.tlsConnect;
      originals = undefined;
    }
    return sockets;
  };
}
