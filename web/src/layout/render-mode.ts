// SVG while arrows can be read one by one, canvas density bands beyond that: the choice is made per
// frame from the number of commands whose arrows are in view, so zooming into a big run brings the
// individual arrows back.
import type { TraceColumns } from '../model/trace-columns.ts';
import { visibleCommandRanges } from './sequence-layout.ts';
import type { TimeScale } from './time-scale-layout.ts';

export type RenderMode = 'svg' | 'canvas';

/** At most this many commands in view are drawn as individual SVG arrows. */
export const SVG_MAX_COMMANDS = 300;

export function chooseRenderMode(columns: TraceColumns, scale: TimeScale): RenderMode {
  const { sent, replied } = visibleCommandRanges(columns, scale);
  const arrows = sent.end - sent.start + (replied.end - replied.start);
  return arrows <= 2 * SVG_MAX_COMMANDS ? 'svg' : 'canvas';
}
