// The label over the first screen's recording (use-first-visit.ts): that it is recorded, when, with which
// Redis and client, on which machine, and what happens next — measured here in a moment on the private
// Redis, or, on a user's own Redis, only when they press Run (never by itself: the label's title says so).
import type { ChannelStatus } from '../../live/live-channel.ts';
import { recordedAtText, type RecordedFirstRun } from '../../state/first-visit.ts';

interface Props {
  recorded: RecordedFirstRun;
  status: ChannelStatus;
  /** The default run was started by itself and is measuring. */
  measuring: boolean;
}

/**
 * What happens next, by the backend's state. Short, so that the label keeps to one line at 1280 px and the
 * diagram under it stays on the first screen; "Recorded" at its start already says it was not measured here.
 */
function nextStep({ connection, redis }: ChannelStatus, measuring: boolean): { text: string; title?: string } {
  if (measuring) return { text: 'measuring it here now…' };
  if (connection.status !== 'open' || !redis) return { text: 'press Run to measure it here once the backend answers.' };
  if (!redis.up) return { text: 'press Run to measure it here once Redis is back.' };
  if (!redis.embedded) return { text: `press Run to measure it on your Redis (${redis.address}).`, title: 'Pipescope never runs by itself on a Redis of your own.' };
  return { text: 'press Run to measure it here.' };
}

export function RecordedNoteView({ recorded, status, measuring }: Props) {
  const first = recorded.traces[0]!;
  const next = nextStep(status, measuring);
  return (
    <p className="message recorded-note" role="status" data-testid="recorded-note" title={next.title}>
      <span>
        <strong>Recorded</strong> {recordedAtText(recorded.traces)} · Redis {first.redis.version} · {first.recorder.client} · {recorded.recording.machine} —{' '}
        {next.text}
      </span>
    </p>
  );
}
