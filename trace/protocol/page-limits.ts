// What a link, an embed's parameters or a host page's message may ask one page to show: more runs than
// compare side by side, more trace files than their repeats, or a time past any run is junk, not a
// request. The web's URL readers and the embed protocol (embed-protocol.ts) hold to the same bounds.
import { MAX_REPEATS } from '../format/run-request.ts';

/** Larger times are junk, not a run: 10⁶ s, in µs since t0. */
export const MAX_DISPLAY_US = 1e12;
/** Runs compared at once (a run being its repeats), two per row: more would not be readable; more files opened are named, not drawn. */
export const MAX_RUNS_SHOWN = 6;
/** Files or ?trace= links read at once: every repeat of each run shown (index.html's prefetch takes as many). */
export const MAX_TRACE_FILES = MAX_RUNS_SHOWN * MAX_REPEATS;
