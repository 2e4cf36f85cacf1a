// Paints the dense diagram (canvas mode) from a density layout: per row of pixels a request band and
// a reply band between the lifelines, length and alpha by count on a log scale, and on the client lane
// the commands in flight plus ticks for socket writes and reads; for server-traced runs Redis's
// executions on its lifeline and its syscalls in the Redis lane. One path per colour and intensity
// level, so a frame is a few dozen canvas calls whatever N is. Coordinates: layout rows in plot px, scaled here by devicePixelRatio.
import type { DensityLayout } from '../layout/density-layout.ts';
import type { DiagramGeometry } from '../layout/diagram-geometry.ts';
import { LIGHT_CANVAS_COLOURS, type CanvasColours } from './theme-colours.ts';

const LEVELS = [0.22, 0.4, 0.65, 1];

/**
 * Fills one path per opacity level (a few fills, not one per row): rows whose count falls in the
 * level get their rectangle from `rectOf`.
 */
function fillRowsByLevel(ctx: CanvasRenderingContext2D, counts: ArrayLike<number>, rows: number, max: number, colour: string, rectOf: (row: number, count: number) => void): void {
  ctx.fillStyle = colour;
  for (let lv = 0; lv < LEVELS.length; lv++) {
    ctx.globalAlpha = LEVELS[lv]!;
    ctx.beginPath();
    let any = false;
    for (let r = 0; r < rows; r++) {
      const c = counts[r]!;
      if (c === 0 || level(c, max) !== lv) continue;
      rectOf(r, c);
      any = true;
    }
    if (any) ctx.fill();
  }
}

function level(count: number, max: number): number {
  if (max <= 1) return LEVELS.length - 1;
  const f = Math.log1p(count) / Math.log1p(max);
  return Math.min(LEVELS.length - 1, Math.max(0, Math.ceil(f * LEVELS.length) - 1));
}

export function sizeCanvas(canvas: HTMLCanvasElement, g: DiagramGeometry, dpr: number): CanvasRenderingContext2D | null {
  const w = Math.round(g.width * dpr);
  const h = Math.round(g.height * dpr);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
    canvas.style.width = `${g.width}px`;
    canvas.style.height = `${g.height}px`;
  }
  const ctx = canvas.getContext('2d');
  ctx?.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

export function clearCanvas(canvas: HTMLCanvasElement): void {
  const ctx = canvas.getContext('2d');
  ctx?.clearRect(0, 0, canvas.width / (ctx.getTransform().a || 1), canvas.height / (ctx.getTransform().d || 1));
}

/** `colours`: the theme's, resolved (theme-colours.ts canvasColours); the light ones by default. */
export function paintDensity(ctx: CanvasRenderingContext2D, layout: DensityLayout, g: DiagramGeometry, n: number, colours: CanvasColours = LIGHT_CANVAS_COLOURS): void {
  ctx.clearRect(0, 0, g.width, g.height);
  const { rows, rowPx, plotTop, maxCount } = layout;
  const half = rowPx / 2;
  // Between the lifelines: requests grow from the client towards the middle, replies from Redis
  // towards the middle, length and darkness by count (log scale), so a row holding both (a sequential
  // run at this zoom) keeps both colours instead of mixing them.
  const midX = (g.clientX + g.serverX) / 2;
  const reach = midX - g.clientX - 2;
  const lengthOf = (c: number) => Math.max(2, (reach * Math.log1p(c)) / Math.log1p(Math.max(1, maxCount)));
  const bands = [
    { counts: layout.requests, colour: colours.request, from: g.clientX + 1, dir: 1 },
    { counts: layout.replies, colour: colours.reply, from: g.serverX - 1, dir: -1 },
  ] as const;
  for (const { counts, colour, from, dir } of bands) {
    fillRowsByLevel(ctx, counts, rows, maxCount, colour, (r, c) => {
      const len = lengthOf(c);
      ctx.rect(dir > 0 ? from : from - len, plotTop + r * rowPx, len, rowPx);
    });
  }
  // Client lane: commands in flight (written, reply not yet read), linear in N, growing leftwards.
  const laneRight = g.clientX - 16;
  const laneWidth = Math.max(0, laneRight - (g.axisX + 6));
  ctx.globalAlpha = 0.35;
  ctx.fillStyle = colours.ink;
  ctx.beginPath();
  for (let r = 0; r < rows; r++) {
    const f = layout.inFlight[r]!;
    if (f === 0) continue;
    const len = Math.max(1, (laneWidth * f) / Math.max(1, n));
    ctx.rect(laneRight - len, plotTop + r * rowPx, len, rowPx);
  }
  ctx.fill();
  // Socket writes and reads: ticks just left of the client lifeline.
  ctx.globalAlpha = 1;
  for (const [counts, colour, offset] of [
    [layout.writes, colours.request, 0],
    [layout.reads, colours.reply, half],
  ] as const) {
    ctx.fillStyle = colour;
    ctx.beginPath();
    for (let r = 0; r < rows; r++) {
      if (counts[r]! > 0) ctx.rect(g.clientX - 11, plotTop + r * rowPx + offset, 8, half);
    }
    ctx.fill();
  }
  // Redis side: executions (MONITOR) as a strip on the lifeline, darker = more per row; syscalls
  // (strace) and other clients' commands as ticks beside it.
  const serverStrips = [
    { counts: layout.executions, colour: colours.execution, x: g.serverX - 3, w: 6 },
    { counts: layout.syscalls, colour: colours.muted, x: g.serverX + 6, w: 8 },
    { counts: layout.others, colour: colours.other, x: g.serverX - 11, w: 5 },
  ];
  for (const { counts, colour, x, w } of serverStrips) {
    if (!counts) continue;
    let max = 0;
    for (let r = 0; r < rows; r++) max = Math.max(max, counts[r]!);
    fillRowsByLevel(ctx, counts, rows, max, colour, (r) => ctx.rect(x, plotTop + r * rowPx, w, rowPx));
  }

  ctx.globalAlpha = 1;
}
