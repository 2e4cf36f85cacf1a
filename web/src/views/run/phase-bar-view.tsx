// "Where the time went" under a run's diagram: t0 → the client's call returned as one stacked bar of
// its measured parts (trace/derive/run-phases.ts: the client before its first write, replies awaited, Redis
// executing, the client between a reply and its next write, the client after the last read), each
// coloured and keyed with its value and its source; hovering or focusing a part (on the bar or in the
// key) shows what it measured. In a comparison every bar is on one time scale (scaleEndUs), so lengths
// compare. The shown repeat's parts: they add up exactly to its total.
// Test hooks: data-testid=phase-bar; each part data-phase=<name> with data-us.
import { useId, useMemo, useRef, useState } from 'react';
import { runPhases, type PhaseName } from '../../../../trace/derive/run-phases.ts';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { formatUs } from '../../format/number-format.ts';
import { PHASE_TEXT, phaseSourceText, phasesTotalText } from '../../format/phase-text.ts';
import { BAR_HEIGHT, BAR_TOP, PHASE_BAR_HEIGHT, phaseBarLayout } from '../../layout/phase-bar-layout.ts';
import { useElementWidth } from './use-element-width.ts';
import './phase-bar-view.css';

interface Props {
  doc: TraceDocument;
  /** µs at the bar's full length: the longest total among the runs compared. */
  scaleEndUs: number;
}

export function PhaseBarView({ doc, scaleEndUs }: Props) {
  const hostRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(hostRef, 600);
  const phases = useMemo(() => runPhases(doc), [doc]);
  const layout = phaseBarLayout(phases, scaleEndUs, width);
  const [active, setActive] = useState<PhaseName | null>(null);
  const explainId = useId();
  const focusProps = (name: PhaseName) => ({
    tabIndex: 0,
    'aria-describedby': explainId,
    onMouseEnter: () => setActive(name),
    onMouseLeave: () => setActive((a) => (a === name ? null : a)),
    onFocus: () => setActive(name),
    onBlur: () => setActive((a) => (a === name ? null : a)),
  });
  return (
    <figure className="phase-bar" data-testid="phase-bar" aria-label={`Where the time of the ${doc.run.mode} run went`}>
      <figcaption>
        <strong>Where the time went</strong>
        <span className="phase-total">{phasesTotalText(doc)}</span>
      </figcaption>
      <div className="phase-bar-host" ref={hostRef}>
        <svg width={layout.width} height={PHASE_BAR_HEIGHT} role="group" aria-label="The run's time, part by part">
          {layout.ticks.map((t) => (
            <g key={t.x} className="phase-tick">
              <line x1={t.x} x2={t.x} y1={BAR_TOP + BAR_HEIGHT} y2={BAR_TOP + BAR_HEIGHT + 3} />
              <text x={t.x} y={BAR_TOP + BAR_HEIGHT + 14}>
                {t.label}
              </text>
            </g>
          ))}
          {layout.rects.map((rect) => (
            <rect
              key={rect.name}
              className={`phase-part phase-${rect.name}${active === rect.name ? ' active' : ''}`}
              data-phase={rect.name}
              data-us={rect.us}
              x={rect.x}
              y={BAR_TOP}
              width={rect.width}
              height={BAR_HEIGHT}
              role="img"
              aria-label={`${PHASE_TEXT[rect.name].label}: ${formatUs(rect.us)}`}
              {...focusProps(rect.name)}
            />
          ))}
          <text className="phase-bar-total" x={layout.endX + 6} y={BAR_TOP + BAR_HEIGHT / 2} dy="0.35em">
            {layout.totalLabel}
          </text>
        </svg>
      </div>
      <table className="phase-key">
        <tbody>
          {phases.map((phase) => (
            <tr key={phase.name} className={active === phase.name ? 'active' : undefined} data-phase-key={phase.name} {...focusProps(phase.name)}>
              <td>
                <span className={`phase-swatch phase-${phase.name}`} aria-hidden="true" />
                {PHASE_TEXT[phase.name].label}
              </td>
              <td className="phase-value">{formatUs(phase.us)}</td>
              <td className="source">{phaseSourceText(phase)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="phase-explain" id={explainId} data-testid="phase-explain" aria-live="polite">
        {active ? PHASE_TEXT[active].explain : 'Hover or focus a part for what it measured.'}
      </p>
    </figure>
  );
}
