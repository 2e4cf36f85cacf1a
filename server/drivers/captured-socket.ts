// The probes need the net.Socket a client library writes to; node-redis keeps its socket private
// (RedisSocket's #socket) and its options offer no hook that hands it out. It makes the socket with
// node:net's createConnection (plain TCP) or node:tls's connect (rediss://), looked up on the module
// object when called, and — checked for node-redis 6.3 — synchronously inside client.connect(): the
// call chain client.connect → RedisSocket.connect → #connect → #createSocket → factory.create() has
// no await before the socket is made (AUTH/HELLO, SELECT come after, once it is connected).
//
// So the capture is scoped to that one synchronous call: the two factories are wrapped, connect() is
// called, and they are put back before it returns its promise. No other code can run in between
// (JavaScript runs one thing at a time), so whatever socket is made then is the library's own, and
// other connections (ioredis, the delay proxy, MONITOR) are never seen. If a future version made
// the socket later (after an await), nothing would be captured and this says so instead of guessing.
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

const require = createRequire(import.meta.url);

type Factory = (...args: unknown[]) => Socket;
/** The CommonJS module objects node-redis requires: the same objects, so a property set here is what it calls. */
const net = require('node:net') as { createConnection: Factory; connect: Factory };
const tls = require('node:tls') as { connect: Factory };

/**
 * Calls `connect` with net.createConnection, net.connect and tls.connect wrapped for that synchronous
 * call only; returns its promise and the one socket made during it. Throws (after `connect` was
 * called: its promise is returned in `pending` for clean-up) unless exactly one socket was made.
 */
export function captureSocket<T>(connect: () => Promise<T>): { pending: Promise<T>; socket: Socket } {
  const made: Socket[] = [];
  const originals = { createConnection: net.createConnection, netConnect: net.connect, tlsConnect: tls.connect };
  const wrap = (original: Factory): Factory =>
    function (this: unknown, ...args: unknown[]): Socket {
      const socket = original.apply(this, args);
      made.push(socket);
      return socket;
    };
  net.createConnection = wrap(originals.createConnection);
  net.connect = wrap(originals.netConnect);
  tls.connect = wrap(originals.tlsConnect);
  let pending: Promise<T>;
  try {
    pending = connect();
  } finally {
    net.createConnection = originals.createConnection;
    net.connect = originals.netConnect;
    tls.connect = originals.tlsConnect;
  }
  if (made.length !== 1) {
    pending.catch(() => {});
    throw new SocketCaptureError(
      `expected the client to open exactly one socket synchronously in connect(), saw ${made.length}: ` +
        'the installed client library no longer creates its socket where drivers/captured-socket.ts looks',
      pending,
    );
  }
  return { pending, socket: made[0]! };
}

export class SocketCaptureError extends Error {
  override name = 'SocketCaptureError';

  constructor(
    message: string,
    /** The connect() promise, for the caller to close what it may still open. */
    readonly pending: Promise<unknown>,
  ) {
    super(message);
  }
}
