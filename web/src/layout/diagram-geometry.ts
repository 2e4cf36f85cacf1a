// Where things sit in a sequence diagram, in CSS pixels relative to the diagram's top-left corner.
//
// Coordinate spaces used by every layout and painter:
//   1. trace time  — µs since the run's t0 (TraceDocument …Us fields).
//   2. plot y      — CSS px, y = timeScale(µs); time flows DOWN from plotTop to plotBottom. The time
//                    scale is d3-scale linear over [0, domainEndUs] (shared: the longest run shown;
//                    own: this run), then the y-only zoom transform (k, ty) of time-scale-layout.ts.
//   3. canvas px   — plot px × devicePixelRatio, only inside density-canvas-painter.ts.
// x is fixed per width: time axis on the left, the client lane (socket writes/reads), the client
// lifeline, the arrows, the Redis lifeline and — for server-traced runs — the Redis lane on its right
// (strace syscalls and their labels), mirroring the client lane.

export interface DiagramGeometry {
  width: number;
  height: number;
  plotTop: number;
  plotBottom: number;
  /** Right edge of the time-axis labels. */
  axisX: number;
  /** Client lifeline; the client lane (write/read marks and their labels) lies between axisX and clientX. */
  clientX: number;
  /** Redis lifeline; the Redis lane (syscall marks and labels), when there is one, lies between serverX and width. */
  serverX: number;
}

export const DIAGRAM_HEIGHT = 500;
/** Room above the plot for the lifeline heads. */
const PLOT_PAD_TOP = 46;
const PLOT_PAD_BOTTOM = 14;
const AXIS_WIDTH = 64;
const LANE_WIDTH = 166;
const SERVER_MARGIN = 26;
/** Room right of the Redis lifeline for a server-traced run's syscall marks and labels ("writev 1.2 KiB"). */
const SERVER_LANE_WIDTH = 112;

export function diagramGeometry(width: number, height = DIAGRAM_HEIGHT, serverLane = false): DiagramGeometry {
  const w = Math.max(240, width);
  const serverMargin = serverLane ? Math.min(SERVER_LANE_WIDTH, Math.max(SERVER_MARGIN, w * 0.18)) : SERVER_MARGIN;
  // Narrow panels give the lane less room; arrows keep at least 40% of the width.
  const lane = Math.min(LANE_WIDTH, Math.max(40, w * 0.6 - AXIS_WIDTH - serverMargin - 40));
  const clientX = AXIS_WIDTH + lane;
  return {
    width: w,
    height,
    plotTop: PLOT_PAD_TOP,
    plotBottom: height - PLOT_PAD_BOTTOM,
    axisX: AXIS_WIDTH,
    clientX,
    serverX: w - serverMargin,
  };
}
