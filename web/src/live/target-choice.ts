// Which Redis the page measures, on a backend that offers Pipescope's two private ones (hello.targets):
// the page's pick (null: the backend's default), each target's last status, and how the picked one's
// start goes (starting, ready in …, failed). Pure: the live channel folds each message in and reads the
// status to show; a backend that offers no choice (a user's own Redis) leaves all of it as it was.
import type { RedisStatus, ServerMessage, TargetName, Targets } from '../../../trace/protocol/live-protocol.ts';

/** How the picked target's start went, as the backend told it (target-state). */
export interface TargetProgress {
  state: 'off' | 'starting' | 'ready' | 'failed';
  /** ready: ms from its start to ready, measured by the backend. */
  readyMs?: number;
  /** ready: what it is; failed: why. */
  message?: string;
  /** ready: whether the page saw it start (a "ready in …" note is worth showing then). */
  startedHere?: boolean;
}

export interface TargetChoice {
  /** From hello; null: the backend offers no choice (or has not said hello). */
  offered: Targets | null;
  /** The page's pick; null: the backend's default. */
  picked: TargetName | null;
  statuses: Partial<Record<TargetName, RedisStatus>>;
  progress: Partial<Record<TargetName, TargetProgress>>;
}

export const NO_TARGET_CHOICE: TargetChoice = { offered: null, picked: null, statuses: {}, progress: {} };

/** The target runs go to: the pick when the backend offers it, else the backend's default (undefined: no choice offered). */
export function runTargetOf(choice: TargetChoice): TargetName | undefined {
  if (!choice.offered) return undefined;
  return choice.picked !== null && choice.offered.offered.includes(choice.picked) ? choice.picked : choice.offered.default;
}

/** The choice after a message from the backend (the same object when the message says nothing of it). */
export function foldTargetMessage(choice: TargetChoice, message: ServerMessage): TargetChoice {
  switch (message.type) {
    case 'hello': {
      const offered = message.targets ?? null;
      const fallback: TargetName = offered?.default ?? 'single';
      return { ...choice, offered, statuses: { [fallback]: message.redis }, progress: offered ? { [fallback]: { state: 'ready' } } : {} };
    }
    case 'redis-status': {
      const target = message.target ?? choice.offered?.default ?? 'single';
      return { ...choice, statuses: { ...choice.statuses, [target]: message.redis } };
    }
    case 'target-state': {
      const before = choice.progress[message.target];
      const progress: TargetProgress = {
        state: message.state,
        ...(message.readyMs !== undefined ? { readyMs: message.readyMs } : {}),
        ...(message.message !== undefined ? { message: message.message } : {}),
        ...(message.state === 'ready' && before?.state === 'starting' ? { startedHere: true } : {}),
      };
      const statuses = message.redis ? { ...choice.statuses, [message.target]: message.redis } : choice.statuses;
      return { ...choice, statuses, progress: { ...choice.progress, [message.target]: progress } };
    }
    default:
      return choice;
  }
}

/** The status of the Redis runs go to now: the picked target's (null while it has none: not started yet). */
export function shownStatus(choice: TargetChoice, fallback: RedisStatus | null): RedisStatus | null {
  const target = runTargetOf(choice);
  if (target === undefined) return fallback;
  return choice.statuses[target] ?? null;
}
