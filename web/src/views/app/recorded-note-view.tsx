// The label over the first screen's recording (use-first-visit.ts): that it is recorded, when, with which
// Redis and client, on which machine, and what happens next — measured here in a moment on the private
// Redis, or, on a user's own Redis, only when they press Run.
import type { ChannelStatus } from '../../live/live-channel.ts';
import { recordedAtText, type RecordedFirstRun } from '../../state/first-visit.ts';

interface Props {
  recorded: RecordedFirstRun;
  status: ChannelStatus;
  /** The default run was started by itself and is measuring. */
  measuring: boolean;
}

/** What happens next, by the backend's state. */
function nextStep({ connection, redis }: ChannelStatus, measuring: boolean): string {
  if (measuring) return 'Measuring it here now…';
  if (connection.status !== 'open' || !redis) return 'Press Run to measure it here once the backend answers.';
  if (!redis.up) return 'Press Run to measure it here once Redis is back.';
  if (!redis.embedded) return `Press Run to measure it on your Redis (${redis.address}); Pipescope never runs by itself there.`;
  return 'Press Run to measure it here.';
}

export function RecordedNoteView({ recorded, status, measuring }: Props) {
  const first = recorded.traces[0]!;
  return (
    <p className="message recorded-note" role="status" data-testid="recorded-note">
      <span>
        <strong>Recorded</strong> {recordedAtText(recorded.traces)} · Redis {first.redis.version} · {first.recorder.client} · {recorded.recording.machine} — not
        measured here. {nextStep(status, measuring)}
      </span>
    </p>
  );
}
