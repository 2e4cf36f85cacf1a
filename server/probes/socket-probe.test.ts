// The socket probe's accounting of corked writes, on a real loopback socket (no Redis): node-redis
// corks, writes each command in pieces (header, Buffer value, CRLF), then uncorks; ioredis writes a
// pipeline in one piece. Either way a corked batch is one write, its bytes and commands the sum of the
// pieces, its head the first bytes of them all.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HEAD_BYTES } from '../../trace/format/trace-format.ts';
import { RunClock } from '../support/monotonic-clock.ts';
import { SocketProbe } from './socket-probe.ts';

let server: Server;
let socket: Socket;
const received: Buffer[] = [];

beforeAll(async () => {
  server = createServer((peer) => peer.on('data', (chunk: Buffer) => received.push(chunk)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  socket = connect((server.address() as { port: number }).port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
});

afterAll(async () => {
  socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const set = (key: string, value: string) => [`*3\r\n$3\r\nSET\r\n$${key.length}\r\n${key}\r\n$${value.length}\r\n`, Buffer.from(value), '\r\n'] as const;

it('a corked batch written in pieces is one write: bytes and commands summed, head across the pieces', () => {
  const clock = new RunClock();
  clock.start();
  const probe = new SocketProbe(socket, clock, true);
  const pieces = [...set('a', 'x'.repeat(40)), ...set('b', 'y'.repeat(40)), '*1\r\n$4\r\nPING\r\n'];
  socket.cork();
  for (const piece of pieces) socket.write(piece);
  socket.uncork();
  socket.write('*1\r\n$4\r\nPING\r\n'); // uncorked: a write of its own
  probe.detach();
  const { writes } = probe.take();
  const all = Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
  expect(writes).toHaveLength(2);
  expect(writes[0]).toMatchObject({ bytes: all.length, commands: 3 });
  expect(writes[0]!.head).toBe(`${all.subarray(0, HEAD_BYTES).toString('latin1').replaceAll('\r', '\\r').replaceAll('\n', '\\n')}…`);
  expect(writes[1]).toMatchObject({ bytes: 14, commands: 1, head: '*1\\r\\n$4\\r\\nPING\\r\\n' });
});

it('a corked batch shorter than the head is shown whole; nested corks count once, at the last uncork', () => {
  const clock = new RunClock();
  clock.start();
  const probe = new SocketProbe(socket, clock, true);
  socket.cork();
  socket.write('*1\r\n$4\r\nPING\r\n');
  socket.cork();
  socket.write('*1\r\n$4\r\nPING\r\n');
  socket.uncork();
  expect(probe.take().writes).toHaveLength(0);
  socket.uncork();
  probe.detach();
  expect(probe.take().writes).toEqual([expect.objectContaining({ bytes: 28, commands: 2, head: '*1\\r\\n$4\\r\\nPING\\r\\n'.repeat(2) })]);
});
