// The client limits: what a request costs, the per-minute window, and each refusal's words.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_LIMITS, RequestRate, addressConnectionRefusal, admissionRefusal, connectionRefusal, followerBudget, followerRefusal, requestCommands } from './client-limits.ts';
import { ConnectionBudget, clientAddress } from './connection-budget.ts';
import { ClientMessageSchema } from '../../../trace/protocol/live-protocol.ts';

const request = (message: unknown) => {
  const parsed = ClientMessageSchema.parse(message);
  if (parsed.type !== 'run' && parsed.type !== 'sweep') throw new Error('not a request');
  return parsed;
};

describe('requestCommands', () => {
  it('counts every mode and repeat of a run, and a sweep twice with its reference', () => {
    expect(requestCommands(request({ type: 'run', requestId: 'a', spec: { command: 'PING', n: 1000, modes: ['sequential', 'pipeline'], repeats: 5 } }))).toBe(10_000);
    // Until certain counts its limit of rounds (40), or with one mode its 5.
    expect(requestCommands(request({ type: 'run', requestId: 'u', spec: { command: 'PING', n: 1000, modes: ['sequential', 'pipeline'] } }))).toBe(80_000);
    expect(requestCommands(request({ type: 'run', requestId: 'v', spec: { command: 'PING', n: 1000, modes: ['pipeline'] } }))).toBe(5_000);
    expect(requestCommands(request({ type: 'sweep', requestId: 'b', spec: { command: 'PING', depths: [1, 2, 4], perPoint: 1000, repeats: 3 } }))).toBe(9_000);
    expect(requestCommands(request({ type: 'sweep', requestId: 'c', spec: { command: 'PING', depths: [1, 2], perPoint: 100, repeats: 1, reference: true } }))).toBe(400);
  });
});

describe('RequestRate', () => {
  it('allows N requests in any minute, and says how long until the next', () => {
    const rate = new RequestRate(2);
    expect(rate.waitMs(0)).toBe(0);
    rate.record(0);
    rate.record(10_000);
    expect(rate.waitMs(20_000)).toBe(40_000);
    expect(rate.waitMs(60_000)).toBe(0); // the first has left the window
  });
});

describe('admissionRefusal', () => {
  const limits = { ...DEFAULT_CLIENT_LIMITS, maxQueuedPerConnection: 2, maxRunsPerMinute: 5, maxQueuedCommands: 1000 };
  const idle = { mine: 0, queuedCommands: 0, length: 0 };

  it('takes a request within every limit', () => {
    expect(admissionRefusal(limits, idle, 10, 0)).toBeNull();
  });

  it('names the limit, its value, its flag and what to do', () => {
    expect(admissionRefusal(limits, { ...idle, mine: 2, length: 2 }, 10, 0)).toBe(
      'Too many requests at once: a connection may have 2 waiting or running (--max-queued-per-client). Wait for one to finish, or cancel one.');
    expect(admissionRefusal(limits, idle, 10, 12_300)).toBe('Too many requests: a connection may start 5 per minute (--max-runs-per-minute). Try again in 13 s.');
    expect(admissionRefusal(limits, { mine: 0, queuedCommands: 900, length: 3 }, 200, 0)).toBe(
      'The queue is full: 900 commands are waiting or running and this request adds 200; together they may be 1,000 (--max-queued-commands). Try again when the queue is shorter, or ask for fewer commands.');
    expect(connectionRefusal(limits)).toBe('Too many connections: at most 200 (--max-connections). Close other tabs or try later.');
  });

  it('takes a request larger than the whole limit when the queue is empty', () => {
    expect(admissionRefusal(limits, idle, 5_000_000, 0)).toBeNull();
  });

  it('fits its connection refusals in a WebSocket close reason (123 bytes)', () => {
    const huge = { ...limits, maxConnections: 1_000_000_000, maxConnectionsPerAddress: 1_000_000_000, maxFollowSessions: 1_000_000_000, maxFollowersPerSession: 1_000_000_000 };
    for (const reason of [connectionRefusal(huge), addressConnectionRefusal(huge), followerRefusal(followerBudget(huge))]) {
      expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
    }
  });

  it('limits the requests of one address, over all its connections', () => {
    const perAddress = { ...limits, maxQueuedPerConnection: 3, maxQueuedPerAddress: 4 };
    expect(admissionRefusal(perAddress, { ...idle, mine: 1, fromAddress: 3, length: 3 }, 10, 0)).toBeNull();
    expect(admissionRefusal(perAddress, { ...idle, mine: 1, fromAddress: 4, length: 4 }, 10, 0)).toBe(
      'Too many requests from your address at once: one address may have 4 waiting or running (--max-queued-per-address). Wait for one to finish, or cancel one.');
  });
});

describe('ConnectionBudget', () => {
  const limits = { ...DEFAULT_CLIENT_LIMITS, maxConnections: 3, maxConnectionsPerAddress: 2, maxFollowSessions: 2, maxFollowersPerSession: 3 };

  it('holds runners to the cap in all and per address, and gives places back', () => {
    const budget = new ConnectionBudget(limits);
    const a1 = budget.admit('10.0.0.1', 'runner');
    expect(typeof a1).toBe('function');
    budget.admit('10.0.0.1', 'runner');
    expect(budget.admit('10.0.0.1', 'runner')).toBe(addressConnectionRefusal(limits));
    budget.admit('10.0.0.2', 'runner');
    expect(budget.admit('10.0.0.3', 'runner')).toBe(connectionRefusal(limits));
    (a1 as () => void)();
    (a1 as () => void)(); // once, however often called
    expect(budget.held('runner')).toBe(2);
    expect(typeof budget.admit('10.0.0.3', 'runner')).toBe('function');
  });

  it('counts followers apart: a full house of runners does not keep a session\'s followers out', () => {
    const budget = new ConnectionBudget(limits);
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) budget.admit(address, 'runner');
    for (let i = 0; i < 3; i++) expect(typeof budget.admit('10.0.0.1', 'follower')).toBe('function');
    expect(budget.admit('10.0.0.1', 'follower')).toBe(followerRefusal(followerBudget(limits))); // a session's worth per address
    for (let i = 0; i < 3; i++) expect(typeof budget.admit(`10.0.1.${i}`, 'follower')).toBe('function');
    expect(budget.admit('10.0.2.1', 'follower')).toBe(followerRefusal(followerBudget(limits))); // every session full
  });

  it('reads an IPv4-mapped address as IPv4', () => {
    expect(clientAddress('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(clientAddress('::1')).toBe('::1');
    expect(clientAddress(undefined)).toBe('unknown');
  });
});
