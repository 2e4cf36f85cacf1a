import { describe, expect, it } from 'vitest';
import { observeSnippets } from './observe-snippets.ts';

describe('observeSnippets', () => {
  it('points every client at the port, and names its pipeline call', () => {
    const snippets = observeSnippets('redis://127.0.0.1:6390');
    expect(snippets.map((s) => s.client)).toEqual(['redis-cli', 'redis-py', 'redis-rb', 'Node (ioredis)']);
    expect(snippets[0]!.code).toContain('redis-cli -h 127.0.0.1 -p 6390');
    for (const s of snippets.slice(1)) expect(s.code).toContain('redis://127.0.0.1:6390');
    expect(snippets[1]!.code).toContain('r.pipeline()');
  });
});
