// The secret redactor: no part of the Redis password survives in any text it passes.
import { describe, expect, it } from 'vitest';
import { redactStrings, secretRedactor } from './secret-redactor.ts';
import { targetFromUrl } from '../../redis/redis-target.ts';

describe('secretRedactor', () => {
  it('removes the password, raw and percent-decoded, and the whole URL', () => {
    const redact = secretRedactor('redis://bench:p%40ss:w0rd@cache.example:6380/2');
    expect(redact('Command failed: redis-benchmark -a p@ss:w0rd -h cache')).toBe('Command failed: redis-benchmark -a *** -h cache');
    expect(redact('AUTH bench p%40ss:w0rd')).toBe('AUTH bench ***');
    expect(redact('Could not connect to redis://bench:p%40ss:w0rd@cache.example:6380/2')).toBe('Could not connect to redis://***@cache.example:6380/2');
  });

  it('removes the credentials of any URL in the text, up to the last @', () => {
    const redact = secretRedactor(undefined);
    expect(redact('see redis://:p@ss@host:1 and rediss://u:x@y/0')).toBe('see redis://***@host:1 and rediss://***@y/0');
    expect(redact('no secrets here: redis://host:6379')).toBe('no secrets here: redis://host:6379');
    expect(redact('at rediss://u:p@[::1]:7000/0 and redis://:pa[ss@host')).toBe('at rediss://***@[::1]:7000/0 and redis://***@host');
  });

  it('leaves the URL hint of an invalid Redis URL readable', () => {
    for (const url of ['redis://[bad', 'redis://:s3cret@[::1', 'not a url']) {
      let message = '';
      try {
        targetFromUrl(url);
      } catch (error) {
        message = secretRedactor(url)((error as Error).message);
      }
      expect(message).toContain('expected redis://[user:password@]host:port[/db] or rediss://…');
      expect(message).not.toContain('s3cret');
    }
  });
});

describe('redactStrings', () => {
  const redact = secretRedactor('redis://:hunter2@cache:6379');

  it('redacts every string at any depth, keys kept', () => {
    const message = { type: 'run-end', serverTrace: { monitor: [{ line: 'AUTH hunter2' }] }, outcomes: ['OK', { e: 'ERR hunter2' }, 3, null] };
    expect(redactStrings(message, redact)).toEqual({ type: 'run-end', serverTrace: { monitor: [{ line: 'AUTH ***' }] }, outcomes: ['OK', { e: 'ERR ***' }, 3, null] });
  });

  it('returns what no secret touched as it is, without copying', () => {
    const writes = [0, 14, 1, 2, 14, 1];
    const message = { type: 'run-events', writes, outcomes: ['PONG', 'PONG'] };
    expect(redactStrings(message, redact)).toBe(message);
  });
});
