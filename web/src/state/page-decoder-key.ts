// Where the decode worker's script, loaded on a page rather than in a worker, leaves decodeBody for
// <pipescope-player> to find (trace-decode-worker.ts sets it, player/player-page-decode.ts reads it):
// a registered Symbol, which no host page's own code would use.
export const PAGE_DECODER_KEY = Symbol.for('pipescope.decodeBody');
