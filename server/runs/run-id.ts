// A run's id: its key namespace (protocol/command-guard.ts namespaceFor), its lease (run-lease.ts) and
// its name in the trace. The time in base 36 and 4 random bytes in hex: `lx3k9a2b-9f8e7d6c`, the shape
// the key janitor recognises as a run's (command-guard.ts RUN_KEY), so it never mistakes a key of
// someone else's for one of ours.
import { randomBytes } from 'node:crypto';

export function newRunId(): string {
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}
