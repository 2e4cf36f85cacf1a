// The playback controls' icons, one set for the app's playback bar (views/playback/playback-bar-view.tsx) and the
// player's control bar (player/control-bar.ts): SVG path data in a 16 × 16 viewBox, filled with currentColor.

export const PLAYBACK_ICONS = {
  previous: 'M3 2h2v12H3zM14 2v12L6 8z',
  play: 'M4 2v12l10-6z',
  pause: 'M3 2h4v12H3zM9 2h4v12H9z',
  next: 'M11 2h2v12h-2zM2 2v12l8-6z',
} as const;
