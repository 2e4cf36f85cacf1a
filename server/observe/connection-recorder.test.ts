import { describe, expect, it } from 'vitest';
import { ConnectionRecorder } from './connection-recorder.ts';

const resp = (...args: string[]) => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;

function recorder() {
  const grown: { bytes: number; commands: number }[] = [];
  const rec = new ConnectionRecorder(
    { session: 's', connection: 1, clientAddress: '127.0.0.1:1', startedAt: '', redis: { version: '7', embedded: true, address: 'x' }, recorder: { tool: 't', version: '', runtime: '' }, addedRttMs: 0, jitterMs: 0, hop: null },
    { maxBulkBytes: 1024 },
    { grow: (bytes, commands) => (grown.push({ bytes, commands }), true), fullReason: () => 'full' },
  );
  let ns = 1_000_000n;
  /** As the port does it: read, forward (a µs later), record. */
  const client = (text: string) => {
    const chunk = Buffer.from(text, 'latin1');
    const parsed = rec.readFromClient(chunk);
    if (parsed.error) return parsed.error;
    const arrived = (ns += 1000n);
    const commands = rec.fromClient(parsed, chunk.length, arrived);
    rec.toServer(chunk.length, commands, (ns += 1000n), parsed.head);
    return commands;
  };
  const server = (text: string) => {
    const chunk = Buffer.from(text, 'latin1');
    const at = (ns += 1000n);
    const result = rec.fromServer(chunk, at);
    if ('error' in result) return result.error;
    rec.toClient(chunk.length, result.replies, at, result.head);
    return result.replies;
  };
  return { rec, grown, client, server };
}

describe('ConnectionRecorder', () => {
  it('records every command with its reply, and every chunk both ways with its time and head', () => {
    const { rec, client, server } = recorder();
    expect(client(resp('PING').repeat(3) + resp('SET', 'k', 'v'))).toBe(4);
    expect(server('+PONG\r\n+PONG\r\n+PO')).toBe(2);
    expect(server('NG\r\n+OK\r\n')).toBe(2);
    expect(client(resp('AUTH', 'secret-pw'))).toBe(1);
    expect(server('-WRONGPASS invalid\r\n')).toBe(1);
    const record = rec.record;
    expect(record.commands).toEqual(['PING', 'PING', 'PING', 'SET k v', 'AUTH (redacted)']);
    expect(record.commandBytes).toEqual([14, 14, 14, 27, 29]);
    expect(record.outcomes).toEqual([{ reply: 'PONG' }, { reply: 'PONG' }, { reply: 'PONG' }, { reply: 'OK' }, { error: 'WRONGPASS invalid' }]);
    expect(record.replyBytes).toEqual([7, 7, 7, 5, 20]);
    expect(record.fromClient.map((c) => [c.atUs, c.bytes, c.commands])).toEqual([[0, 69, 4], [4, 29, 1]]);
    expect(record.toServer.map((c) => [c.atUs, c.bytes, c.commands])).toEqual([[1, 69, 4], [5, 29, 1]]);
    expect(record.fromServer.map((c) => [c.atUs, c.bytes, c.replies])).toEqual([[2, 17, 2], [3, 9, 2], [6, 20, 1]]);
    expect(record.toClient).toEqual(record.fromServer);
    expect(record.fromClient[0]!.head).toBe('*1\\r\\n$4\\r\\nPING\\r\\n*1\\r\\n$4\\r\\nPING\\r\\n*1\\r\\n$4\\r\\nPING\\r\\n*3\\r\\n$3\\r\\nSET\\r\\n$1\\r\\nk\\r\\n$1…');
    expect(JSON.stringify(record)).not.toContain('secret-pw');
    expect([rec.commandCount, rec.replyCount, rec.chunkCounts]).toEqual([5, 5, { fromClient: 2, toClient: 3 }]);
  });

  it('after a cut, replies to the commands recorded still are, later commands are not', () => {
    const { rec, client, server } = recorder();
    client(resp('PING').repeat(2));
    rec.cut('the session is full');
    expect(client(resp('PING'))).toBe(0);
    expect(server('+PONG\r\n'.repeat(3))).toBe(2);
    const record = rec.record;
    expect(record.commands).toHaveLength(2);
    expect(record.outcomes).toHaveLength(2);
    expect(record.notes.join(' ')).toMatch(/recording stopped after 2 commands: the session is full/);
  });

  it('charges the session for what is new: a command repeated costs its cells, not its text again', () => {
    const { grown, client } = recorder();
    client(resp('PING'));
    client(resp('PING'));
    client(resp('PING').repeat(10));
    client(resp('PING').repeat(10));
    expect(grown.map((g) => g.commands)).toEqual([1, 1, 10, 10]);
    // A chunk's four columns (28 bytes), and per command a text index and a size (12 bytes).
    expect(grown[1]!.bytes).toBe(28 + 12);
    expect(grown[3]!.bytes).toBe(28 + 10 * 12);
    // New: the text and the head, each once.
    expect(grown[0]!.bytes).toBeGreaterThan(grown[1]!.bytes + 'PING'.length * 2);
    expect(grown[2]!.bytes).toBeGreaterThan(grown[3]!.bytes);
  });

  it('a protocol error from the client is noted and returned: the port closes the connection unforwarded', () => {
    const { rec, client } = recorder();
    expect(client('*x\r\n')).toMatch(/invalid multibulk length/);
    expect(rec.meta.notes.join(' ')).toMatch(/nothing of that chunk was forwarded/);
  });
});
