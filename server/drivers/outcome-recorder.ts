// Records each reply of a run as its outcome, in order. Outcomes are never changed once made, so a
// reply equal to the one before it is recorded as that same outcome object: a pipeline of 100,000
// PINGs is 100,000 "PONG"s, and one object instead of 100,000 keeps the garbage collector out of
// the measured run.
import type { Outcome } from '../../trace/format/trace-builder.ts';
import type { ReplyValue } from '../../trace/format/trace-format.ts';

export interface OutcomeRecorder {
  reply(value: ReplyValue): void;
  error(message: string): void;
}

export function outcomeRecorder(record: (outcome: Outcome) => void): OutcomeRecorder {
  let last: Outcome | undefined;
  return {
    reply(value) {
      if (last === undefined || !('reply' in last) || last.reply !== value) last = { reply: value };
      record(last);
    },
    error(message) {
      if (last === undefined || !('error' in last) || last.error !== message) last = { error: message };
      record(last);
    },
  };
}
