// Refused requests are logged, so whoever runs Pipescope sees an attack or a misconfiguration; but a
// page that retries in a loop must not flood the terminal: each kind of refusal is printed at most once
// per QUIET_MS, with a count of the ones left out. Lines say what was refused and why, never a secret.
const QUIET_MS = 10_000;

export type LogLine = (line: string) => void;

export class RefusalLog {
  private readonly last = new Map<string, { atMs: number; leftOut: number }>();

  constructor(
    private readonly write: LogLine = (line) => console.warn(line),
    private readonly nowMs: () => number = Date.now,
  ) {}

  note(kind: string, line: string): void {
    const now = this.nowMs();
    const last = this.last.get(kind);
    if (last && now - last.atMs < QUIET_MS) {
      last.leftOut++;
      return;
    }
    const more = last?.leftOut ? ` (${last.leftOut} more like it not shown)` : '';
    this.last.set(kind, { atMs: now, leftOut: 0 });
    this.write(`pipescope: ${line}${more}`);
  }
}
