// Which Host names and page origins the server accepts, for loopback, any-address and specific binds.
import { describe, expect, it } from 'vitest';
import { OriginPolicy, hostOf, type MachineNames } from './origin-policy.ts';

const machine: MachineNames = { addresses: () => ['127.0.0.1', '192.168.1.20', '::1', 'fe80::1%eth0'], hostname: () => 'Workshop-Laptop' };
const policy = (host: string, extra: { allowOrigins?: string[]; allowHosts?: string[] } = {}) =>
  new OriginPolicy({ host, allowOrigins: extra.allowOrigins ?? [], allowHosts: extra.allowHosts ?? [] }, machine);

describe('Host names', () => {
  it('a loopback bind answers to localhost, 127.0.0.1 and [::1] only', () => {
    expect([...policy('127.0.0.1').hostNames()].sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
    expect(policy('127.0.0.1').checkHost('localhost:7380')).toBeNull();
    expect(policy('127.0.0.1').checkHost('[::1]:7380')).toBeNull();
    expect(policy('::1').checkHost('127.0.0.1:7380')).toBeNull();
  });

  it('refuses a rebinding name, with the reason and the flag that would allow it', () => {
    const refusal = policy('127.0.0.1').checkHost('attacker.example:7380');
    expect(refusal).toContain('Host "attacker.example" is not a name this Pipescope serves');
    expect(refusal).toContain('--allow-host NAME');
  });

  it('0.0.0.0 also answers to the machine\'s addresses and names', () => {
    const names = policy('0.0.0.0').hostNames();
    for (const name of ['localhost', '192.168.1.20', '[fe80::1]', 'workshop-laptop', 'workshop-laptop.local']) expect(names).toContain(name);
    expect(policy('0.0.0.0').checkHost('Workshop-Laptop:7380')).toBeNull();
    expect(policy('0.0.0.0').checkHost('evil.example')).not.toBeNull();
    expect(policy('::').checkHost('192.168.1.20:7380')).toBeNull();
  });

  it('--allow-host adds a name', () => {
    expect(policy('0.0.0.0', { allowHosts: ['pipescope.example.org'] }).checkHost('pipescope.example.org')).toBeNull();
  });

  it('refuses missing, empty and malformed Host headers', () => {
    for (const header of [undefined, '', 'a b', 'localhost/x', 'user@localhost', 'localhost:99999']) {
      expect(policy('127.0.0.1').checkHost(header)).not.toBeNull();
    }
    expect(hostOf('LOCALHOST:1')).toBe('localhost');
  });

  it('never echoes control characters or very long names', () => {
    const refusal = policy('127.0.0.1').checkHost(`${'x'.repeat(300)}.example`)!;
    expect(refusal.length).toBeLessThan(400);
  });
});

describe('Origins', () => {
  const p = policy('127.0.0.1', { allowOrigins: ['https://docs.example.com'] });

  it('accepts the page\'s own origin and no Origin at all (not a browser)', () => {
    expect(p.checkOrigin('http://127.0.0.1:7380', '127.0.0.1:7380')).toBeNull();
    expect(p.checkOrigin('http://LOCALHOST:7380', 'localhost:7380')).toBeNull();
    expect(p.checkOrigin(undefined, '127.0.0.1:7380')).toBeNull();
  });

  it('accepts an origin allowed by --allow-origin', () => {
    expect(p.checkOrigin('https://docs.example.com', '127.0.0.1:7380')).toBeNull();
  });

  it('refuses another site, another port, "null" and file pages', () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1:8000', 'null', 'file://', 'http://localhost:7380']) {
      const refusal = p.checkOrigin(origin, '127.0.0.1:7380');
      expect(refusal, origin).toContain('may not open Pipescope\'s live connection');
      expect(refusal).toContain('--allow-origin');
    }
  });
});
