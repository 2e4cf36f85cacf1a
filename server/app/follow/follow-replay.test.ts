// The replay buffer of a follow session: the latest request only, bounded by bytes, and "too big" past it.
import { describe, expect, it } from 'vitest';
import { FollowReplay } from './follow-replay.ts';

const frame = (text: string) => Buffer.from(text);

describe('FollowReplay', () => {
  it('has nothing to replay before the first request', () => {
    const replay = new FollowReplay(100);
    expect(replay.state).toBe('none');
    expect(replay.kept).toEqual([]);
  });

  it('keeps the frames of the latest request only, in order', () => {
    const replay = new FollowReplay(100);
    replay.begin('a', frame('a0'));
    replay.add('a', frame('a1'));
    replay.begin('b', frame('b0'));
    replay.add('a', frame('a2')); // the earlier request, still running
    replay.add('b', frame('b1'));
    expect(replay.state).toBe('complete');
    expect(replay.kept.map(String)).toEqual(['b0', 'b1']);
    expect(replay.keptBytes).toBe(4);
  });

  it('lets a request go once it outgrows the bound, and says so until the next request', () => {
    const replay = new FollowReplay(10);
    replay.begin('a', frame('12345'));
    replay.add('a', frame('12345'));
    expect(replay.state).toBe('complete');
    replay.add('a', frame('x'));
    expect(replay.state).toBe('too-big');
    expect(replay.kept).toEqual([]);
    expect(replay.keptBytes).toBe(0);
    replay.add('a', frame('y'));
    expect(replay.state).toBe('too-big');
    expect(replay.latestRequestId).toBe('a');
    replay.begin('b', frame('b0'));
    expect(replay.state).toBe('complete');
    expect(replay.kept.map(String)).toEqual(['b0']);
  });
});
