// Links that show a run: the backend keeps the traces of the runs it measured lately, each under an
// unguessable id, and serves them read-only at STORED_RUNS_PATH<id> in the compact form; the page's link
// names the ids of the runs on screen (url/page-link.ts, `stored=`). What both ends must agree on: the
// path, the shape of an id, and the bounds, which the page states beside Copy link.
/** Where a kept run is served, relative to the app: `stored-runs/<id>`. */
export const STORED_RUNS_PATH = 'stored-runs/';
/** Runs kept at most, the oldest forgotten first: every repeat of the six runs a page compares at once (page-limits.ts MAX_TRACE_FILES). */
export const MAX_STORED_RUNS = 240;
/** Bytes kept at most (the compact form, gzipped), the oldest forgotten first. */
export const MAX_STORED_BYTES = 64 * 1024 * 1024;
/** A run whose trace is larger than this (gzipped compact bytes) is not kept: it would push out too many others. */
export const MAX_STORED_RUN_BYTES = MAX_STORED_BYTES / 4;
/** Wire commands of the largest run kept: encoding one takes ~1 s here (after its request, never during a run). */
export const MAX_STORED_COMMANDS = 200_000;
/** Random bits in an id (crypto.randomBytes), written in base64url: 22 characters. */
export const STORED_ID_BITS = 128;
export const STORED_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export const isStoredId = (text: string): boolean => STORED_ID_PATTERN.test(text);

/** What the page says of such a link: how long it lives, and how to keep a run for good. */
export const STORED_LINK_LIFETIME =
  `The link shows these runs while this Pipescope keeps running: it keeps the last ${MAX_STORED_RUNS} runs it measured ` +
  `(at most ${MAX_STORED_BYTES / 1024 / 1024} MiB), and forgets them when it stops. For a copy that lasts, use Export → Trace (JSON).`;
