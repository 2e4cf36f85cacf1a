// The colours that carry meaning, in the light theme: the values of app.css's :root variables, kept here
// for code that cannot read CSS (the canvas painter's fallback where no stylesheet applies, tests).
// Painters take colours from CSS (SVG classes; the canvas through theme-colours.ts), so the dark theme's
// values live in app.css only. Okabe–Ito, safe for the common colour-vision deficiencies:
// requests (and the writes that carry them) blue, replies (and the reads that bring them) vermillion,
// Redis executing a command bluish green, other clients grey.
export const PALETTE = {
  request: '#0072B2',
  reply: '#D55E00',
  error: '#CC79A7',
  ink: '#1d232b',
  muted: '#5b6573',
  grid: '#e6e9ee',
  lifeline: '#8a94a3',
  focus: '#111111',
  /** Redis executing a command (MONITOR): Okabe–Ito bluish green, apart from both arrow colours. */
  execution: '#009E73',
  /** Other clients' commands on the shared Redis. */
  other: '#a3acb8',
} as const;

/**
 * The parts of a run's time on its phase bar (phase-bar-view.tsx; app.css --phase-*): the client's own
 * parts in oranges (Okabe–Ito orange and a lighter and a darker shade of it), the bytes awaited in
 * Okabe–Ito sky blue, Redis executing in the execution colour.
 */
export const PHASE_COLOURS = {
  beforeFirstWrite: '#E69F00',
  awaiting: '#56B4E9',
  redisExec: '#009E73',
  clientBetween: '#F3CD7A',
  afterLastRead: '#9C6A00',
} as const;
