import { describe, expect, it } from 'vitest';
import { redisDownText } from './redis-down-text.ts';

describe('redisDownText', () => {
  it('says "not answering" for an unanswered PING, without repeating the address', () => {
    expect(redisDownText({ message: 'Redis at 127.0.0.1:6379 is not answering: no reply to PING within 5 s' })).toEqual({
      headline: 'Redis is not answering',
      detail: 'no reply to PING within 5 s',
    });
  });

  it('says "unreachable" with the backend\'s words for anything else', () => {
    expect(redisDownText({ message: 'connect ECONNREFUSED 127.0.0.1:6379' })).toEqual({
      headline: 'Redis is unreachable',
      detail: 'connect ECONNREFUSED 127.0.0.1:6379',
    });
    expect(redisDownText({})).toEqual({ headline: 'Redis is unreachable', detail: undefined });
  });
});
