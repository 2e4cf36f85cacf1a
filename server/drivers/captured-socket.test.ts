// captureSocket: the one socket made during connect()'s synchronous call is returned, the factories are
// put back whatever happens, and anything but exactly one socket is refused (no Redis needed: the
// sockets go to a loopback server of the test's own).
import net, { createServer, type Server, type Socket } from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { captureSocket, SocketCaptureError } from './captured-socket.ts';

let server: Server;
let port: number;
const peers: Socket[] = [];
const originals = { createConnection: net.createConnection, connect: net.connect, tlsConnect: tls.connect };

beforeAll(async () => {
  server = createServer((peer) => peers.push(peer));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  for (const peer of peers) peer.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const restored = () => {
  expect(net.createConnection).toBe(originals.createConnection);
  expect(net.connect).toBe(originals.connect);
  expect(tls.connect).toBe(originals.tlsConnect);
};

it('returns the socket made synchronously in connect(), and its promise', async () => {
  let made: Socket | undefined;
  const { socket, pending } = captureSocket(() => {
    made = net.createConnection({ host: '127.0.0.1', port });
    return new Promise<string>((resolve) => made!.once('connect', () => resolve('connected')));
  });
  restored();
  expect(socket).toBe(made);
  expect(await pending).toBe('connected');
  socket.destroy();
});

it('does not see a socket made after an await, and says so', async () => {
  const late: Socket[] = [];
  const attempt = () =>
    captureSocket(async () => {
      await Promise.resolve();
      late.push(net.connect({ host: '127.0.0.1', port }).on('error', () => {}));
    });
  expect(attempt).toThrow(SocketCaptureError);
  expect(attempt).toThrow(/saw 0/);
  restored();
  await new Promise((resolve) => setImmediate(resolve));
  expect(late).toHaveLength(2); // made all the same, once connect() had returned
  for (const socket of late) socket.destroy();
});

it('puts the factories back when connect() throws', () => {
  expect(() => captureSocket(() => {
    throw new Error('boom');
  })).toThrow('boom');
  restored();
});
