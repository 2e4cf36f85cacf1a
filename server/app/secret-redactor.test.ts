// The secret redactor: no part of the Redis password survives in any text it passes.
import { describe, expect, it } from 'vitest';
import { secretRedactor } from './secret-redactor.ts';

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
  });
});
