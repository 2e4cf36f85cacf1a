// redactUrl: a Redis URL for messages and logs, with no part of its user or password left.
import { describe, expect, it } from 'vitest';
import { redactUrl } from './redis-target.ts';

describe('redactUrl', () => {
  it.each([
    ['redis://:p@ss@host', 'redis://***@host'],
    ['redis://user:p@ss:w@host:6380/2', 'redis://***@host:6380/2'],
    ['redis://:p%40ss@h:1', 'redis://***@h:1'],
    ['rediss://u:pw@[::1]:7000/0', 'rediss://***@[::1]:7000/0'],
    ['redis://host:6379', 'redis://host:6379'],
    ['redis://a:b@c/d?x=y#z', 'redis://***@c/…'],
  ])('%s prints as %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it('does not echo text that is not a URL at all', () => {
    expect(redactUrl('redis//:secret@')).toBe('<unreadable URL>');
    expect(redactUrl('redis://:pa/ss@host')).toBe('<unreadable URL>'); // a "/" ends the host part: not a Redis URL
  });
});
