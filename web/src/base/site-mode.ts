// Which site this bundle is: the live app served by `npm start` (a backend on the same origin, runs over
// the /live WebSocket), or the static site of `npm run build:static` (dist/static: recorded traces only, no
// backend, put on any static host under any sub-path). Vite replaces the expression below at build time,
// so the static bundle carries no code path that opens a socket; main.tsx reads it once and hands the
// answer down (AppView's `offline` prop), so the views can be tested either way without rebuilding.
declare global {
  interface ImportMetaEnv {
    /** '1' in `npm run build:static` (scripts/build-static.mjs); unset in the live app and in tests. */
    readonly VITE_PIPESCOPE_STATIC?: string;
  }
}

/** True in the static site's bundle: no backend, never a WebSocket. */
export const STATIC_SITE: boolean = import.meta.env.VITE_PIPESCOPE_STATIC === '1';
