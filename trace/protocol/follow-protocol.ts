// Follow mode's messages on the /live WebSocket: a presenter starts a follow session and gets an
// unguessable code; attendees join with it and are sent, by the server, the presenter's run stream (the very
// run-start / run-events / run-end … messages the presenter gets, so they build the same traces) and the
// presenter's display state (playhead, view, display hash keys). live-protocol.ts puts these schemas in its
// two unions; both ends validate them there. The display state is capped here: a presenter's page cannot
// make the server relay more than a few KiB per update, and the server relays at most 10 updates a second.
import { z } from 'zod';
import { RunSpecSchema } from '../format/run-request.ts';

/** A follow code: 16 random bytes (128 bits) in base64url, 22 characters. */
export const FOLLOW_CODE_BYTES = 16;
/** What a well-formed code looks like; a malformed one is told apart from an unknown one only by the link parser. */
export const FOLLOW_CODE_PATTERN = /^[A-Za-z0-9_-]{22}$/;
/** Display hash keys a presenter may send per update, and the length of each value (characters). */
export const MAX_DISPLAY_KEYS = 12;
export const MAX_DISPLAY_VALUE_CHARS = 200;
/** The server relays at most this many display updates per second per session (the latest one always arrives). */
export const DISPLAY_UPDATES_PER_SECOND = 10;

/** A playhead further than this from t0 (µs, ~116 days) is no trace's: every run is bounded far below it. */
export const MAX_POSITION_US = 1e13;
/** The slowest playback the page offers: 1/1000 of real time. */
export const MIN_PLAYBACK_SPEED = 0.001;

/** A display key's name: short lower camel case (anything else is left out of an update, not refused). */
export const DISPLAY_KEY_PATTERN = /^[a-z][a-zA-Z0-9]{0,15}$/;

/** The page's views (web/src/state/page-choices.ts VIEW_CHOICES; repeated here because trace/ imports no web code). */
export const FollowViewSchema = z.enum(['run', 'sweep', 'gallery']);

export const FollowDisplaySchema = z.object({
  view: FollowViewSchema,
  /** The diagrams' time scale: one axis for all runs, or each its own. */
  scale: z.enum(['shared', 'own']),
  /** The presenter's playhead, µs since t0; null = no playback (everything drawn). */
  positionUs: z
    .number({ error: 'positionUs must be a number or null' })
    .min(0, 'positionUs must be at least 0')
    .max(MAX_POSITION_US, `positionUs must be at most ${MAX_POSITION_US.toExponential()} (µs)`)
    .nullable(),
  playing: z.boolean(),
  /** Trace µs per wall-clock µs (1 = real time, down to 1/1000). */
  speed: z
    .number({ error: 'speed must be a number' })
    .min(MIN_PLAYBACK_SPEED, `speed must be at least ${MIN_PLAYBACK_SPEED}`)
    .max(1, 'speed must be at most 1'),
  /** The presenter's display hash keys (zoom, tour, …), as in their URL: short lower-camel-case names. */
  keys: z
    .record(z.string().regex(DISPLAY_KEY_PATTERN), z.string().max(MAX_DISPLAY_VALUE_CHARS))
    .refine((keys) => Object.keys(keys).length <= MAX_DISPLAY_KEYS, `at most ${MAX_DISPLAY_KEYS} display keys`),
});
export type FollowDisplay = z.infer<typeof FollowDisplaySchema>;

const code = z.string().min(1).max(64);

export const FollowClientMessageSchemas = [
  /** Presenter: start sharing this connection's runs and display state. */
  z.object({ type: z.literal('follow-start') }),
  /** Presenter: stop sharing; followers are told. */
  z.object({ type: z.literal('follow-stop') }),
  /** Presenter: the display state now (the server relays at most DISPLAY_UPDATES_PER_SECOND). */
  z.object({ type: z.literal('follow-display'), display: FollowDisplaySchema }),
  /** Attendee: follow the session with this code. A following connection sends no runs. */
  z.object({ type: z.literal('follow-join'), code }),
] as const;

export const FollowEndReasonSchema = z.enum(['stopped', 'presenter-left', 'too-slow', 'server-closing']);
export type FollowEndReason = z.infer<typeof FollowEndReasonSchema>;

export const FollowServerMessageSchemas = [
  /** To the presenter: sharing has started; the follow link carries `code`. */
  z.object({ type: z.literal('follow-started'), code, maxFollowers: z.number().int().positive() }),
  /** To the presenter: how many follow now. */
  z.object({ type: z.literal('follow-count'), followers: z.number().int().nonnegative() }),
  /**
   * To a follower that joined. replay: what follows at once — 'none' (the presenter has run nothing while
   * sharing), 'complete' (the runs of the presenter's latest request), 'too-big' (that request's messages
   * outgrew the replay buffer: only later requests will be shown).
   */
  z.object({ type: z.literal('follow-joined'), replay: z.enum(['none', 'complete', 'too-big']) }),
  /** To followers: the presenter asked for this run; its run messages follow under the same requestId. */
  z.object({ type: z.literal('follow-request'), requestId: z.string().min(1).max(64), spec: RunSpecSchema }),
  /** To followers: the presenter's display state. */
  z.object({ type: z.literal('follow-display'), display: FollowDisplaySchema }),
  /** To a follower: the session is over for it, and why. */
  z.object({ type: z.literal('follow-ended'), reason: FollowEndReasonSchema, message: z.string() }),
  /** A follow request refused (unknown code, a limit, a follower trying to run…), in words. */
  z.object({ type: z.literal('follow-error'), message: z.string() }),
] as const;
