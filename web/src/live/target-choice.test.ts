import { describe, expect, it } from 'vitest';
import type { RedisStatus, ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { NO_TARGET_CHOICE, foldTargetMessage, runTargetOf, shownStatus, type TargetChoice } from './target-choice.ts';

const single: RedisStatus = { up: true, version: '7.0.15', embedded: true, address: '127.0.0.1:6400' };
const cluster: RedisStatus = { up: true, version: '7.0.15', embedded: true, address: '127.0.0.1:7001' };
const fold = (choice: TargetChoice, ...messages: ServerMessage[]) => messages.reduce(foldTargetMessage, choice);
const hello = (targets?: { offered: ('single' | 'cluster')[]; default: 'single' | 'cluster' }): ServerMessage =>
  ({ type: 'hello', version: '1', redis: single, ...(targets ? { targets } : {}) });

describe('the page’s pick of target', () => {
  it('a backend that offers no choice: no target named, the hello’s status shown', () => {
    const choice = fold({ ...NO_TARGET_CHOICE, picked: 'cluster' }, hello());
    expect(runTargetOf(choice)).toBeUndefined();
    expect(shownStatus(choice, single)).toBe(single);
  });

  it('picking the cluster: nothing shown until it is ready, then its status; the single Redis’s status kept apart', () => {
    let choice = fold({ ...NO_TARGET_CHOICE, picked: 'cluster' }, hello({ offered: ['single', 'cluster'], default: 'single' }));
    expect(runTargetOf(choice)).toBe('cluster');
    expect(shownStatus(choice, single)).toBeNull();
    choice = fold(choice, { type: 'target-state', target: 'cluster', state: 'starting' });
    expect(choice.progress.cluster).toEqual({ state: 'starting' });
    choice = fold(choice, { type: 'redis-status', target: 'single', redis: { ...single, message: 'restarted' } });
    expect(shownStatus(choice, single)).toBeNull();
    choice = fold(choice, { type: 'target-state', target: 'cluster', state: 'ready', readyMs: 2210, message: 'private Redis Cluster …', redis: cluster });
    expect(shownStatus(choice, single)).toBe(cluster);
    expect(choice.progress.cluster).toEqual({ state: 'ready', readyMs: 2210, message: 'private Redis Cluster …', startedHere: true });
    expect(shownStatus({ ...choice, picked: 'single' }, single)).toEqual({ ...single, message: 'restarted' });
  });

  it('a target the backend does not offer falls back to its default', () => {
    const choice = fold({ ...NO_TARGET_CHOICE, picked: 'cluster' }, hello({ offered: ['single'], default: 'single' }));
    expect(runTargetOf(choice)).toBe('single');
  });
});
