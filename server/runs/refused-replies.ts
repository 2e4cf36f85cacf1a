// Error replies a run did not ask for. Redis refuses a command before running it when it cannot take
// it: OOM (used memory over maxmemory with noeviction), MISCONF (a failed save), READONLY (a replica),
// LOADING, BUSY (a script running), NOPERM (the ACL)… Such a command is not executed (MONITOR does not
// show it, INFO does not count it), and a run of them measures nothing of pipelining, so the run fails
// with what Redis said and how many it refused, instead of ending as if all went well. A run with a
// planted error (errorAt) expects its own error replies; only the refusals above count there.
import type { Outcome } from '../../trace/format/trace-builder.ts';

/** Redis's error codes for "not run: the server cannot take it now". */
const REFUSAL_CODES = /^(OOM|MISCONF|READONLY|LOADING|BUSY|NOPERM|NOAUTH|MASTERDOWN|NOREPLICAS|CLUSTERDOWN|TRYAGAIN|MOVED|ASK)\b/;

/**
 * A cluster's redirects, which the raw engine follows (drivers/cluster-redirects.ts): the command was sent
 * again where the node said, and that resend's own reply is the one that counts. One not followed fails
 * the run there, with its own words.
 */
const FOLLOWED_REDIRECT = /^(MOVED|ASK) \d+ \S+$|^TRYAGAIN\b/;

/** What to do about a refusal, by its code. */
const HINTS: Record<string, string> = {
  OOM: 'Redis is out of memory (used memory over its maxmemory, with a noeviction policy): free memory on it, raise maxmemory, or run fewer or smaller keys. Pipescope never changes a Redis\'s configuration.',
  MISCONF: 'Redis refuses writes because it could not save to disk.',
  READONLY: 'this Redis is a read-only replica: point Pipescope at the primary.',
  NOPERM: 'the Redis user lacks a permission (see the ACL line in docs/security.md).',
  BUSY: 'a script is running on Redis.',
  LOADING: 'Redis is still loading its data set.',
};

export class ReplyRefusals {
  private refused = 0;
  private seen = 0;
  private first: { index: number; error: string } | undefined;

  /**
   * `planted`: the run has a planted error, whose own error replies are expected. `expected`: error replies
   * the run is there to show (a cluster's CROSSSLOT: cluster-refusal.ts), never a refusal.
   */
  constructor(private readonly planted: boolean, private readonly expected: RegExp | null = null) {}

  note(outcomes: readonly Outcome[]): void {
    for (const outcome of outcomes) {
      if ('error' in outcome && !this.expected?.test(outcome.error) && !FOLLOWED_REDIRECT.test(outcome.error) && (!this.planted || REFUSAL_CODES.test(outcome.error))) {
        this.refused++;
        this.first ??= { index: this.seen, error: outcome.error };
      }
      this.seen++;
    }
  }

  /** The run's error when Redis refused any of its commands; null when it refused none. */
  failure(): Error | null {
    if (!this.first) return null;
    const code = /^[A-Z]+/.exec(this.first.error)?.[0] ?? '';
    const hint = HINTS[code];
    const count = `${this.refused.toLocaleString('en-US')} of the run's ${this.seen.toLocaleString('en-US')} commands`;
    const where = this.refused === this.seen ? 'every one' : `the first at command ${this.first.index.toLocaleString('en-US')}`;
    return new Error(`Redis refused ${count} (${where}): ${this.first.error.trim()}${hint ? ` — ${hint}` : ''}`);
  }
}
