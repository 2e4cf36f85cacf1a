// Lays out the "where the time went" bar under a run's diagram: the parts of t0 → call returned
// (trace/derive/run-phases.ts) as adjacent rectangles in drawing order, the total printed past the bar's end,
// and a time axis. Pure, unit-tested. Coordinate space: CSS px relative to the bar's <svg>.
//   µs → x: d3 scaleLinear over [0, scaleEndUs] onto [0, width − TOTAL_ROOM]. In a comparison every
//           bar gets the same scaleEndUs (the longest run shown), so lengths compare across panels.
// Parts keep their exact widths (a 2 µs part of a 5 ms bar is a fraction of a px: the key says it in
// figures); parts of 0 µs get no rectangle.
import { scaleLinear } from 'd3';
import type { Phase, PhaseName } from '../../../trace/derive/run-phases.ts';
import { formatTickUs, formatUs } from '../format/number-format.ts';

/** Room right of the longest bar for its total ("1.72 ms"). */
export const TOTAL_ROOM = 64;
export const BAR_TOP = 2;
export const BAR_HEIGHT = 18;
/** The whole <svg>: the bar, then the tick labels under it. */
export const PHASE_BAR_HEIGHT = BAR_TOP + BAR_HEIGHT + 17;
/** Aim for a tick every this many px. */
const TICK_SPACING_PX = 110;

export interface PhaseRect {
  name: PhaseName;
  x: number;
  width: number;
  us: number;
}

export interface PhaseBarLayout {
  width: number;
  rects: PhaseRect[];
  /** Where the bar ends (t0 → call returned), and the total printed after it. */
  endX: number;
  totalLabel: string;
  ticks: { x: number; label: string }[];
}

const r = (v: number) => Math.round(v * 100) / 100;

/** scaleEndUs: the longest total among the runs compared (this run's own when alone). */
export function phaseBarLayout(phases: readonly Phase[], scaleEndUs: number, width: number): PhaseBarLayout {
  const w = Math.max(120, width);
  const totalUs = phases.reduce((sum, p) => sum + p.us, 0);
  const x = scaleLinear()
    .domain([0, Math.max(1, scaleEndUs, totalUs)])
    .range([0, w - TOTAL_ROOM]);
  const rects: PhaseRect[] = [];
  let fromUs = 0;
  for (const phase of phases) {
    if (phase.us > 0) rects.push({ name: phase.name, x: r(x(fromUs)), width: r(x(fromUs + phase.us) - x(fromUs)), us: phase.us });
    fromUs += phase.us;
  }
  const values = x.ticks(Math.max(2, Math.floor((w - TOTAL_ROOM) / TICK_SPACING_PX)));
  const step = values.length > 1 ? values[1]! - values[0]! : undefined;
  return {
    width: w,
    rects,
    endX: r(x(totalUs)),
    totalLabel: formatUs(totalUs),
    ticks: values.map((us) => ({ x: r(x(us)), label: formatTickUs(us, step) })),
  };
}
