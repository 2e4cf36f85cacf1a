import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { PHASE_TEXT } from '../../format/phase-text.ts';
import { sequentialTrace } from '../../test-support/trace-fixtures.ts';
import { PhaseBarView } from './phase-bar-view.tsx';
import { useReactHost } from '../../test-support/react-host.ts';


describe('PhaseBarView', () => {
  const view = useReactHost();

  it('draws the parts that took time, keys all five with value and source, and explains one on hover or focus', () => {
    const doc = sequentialTrace(3); // 10 µs before the first write, 294 awaited, 6 in Redis, 40 between: 350 µs
    view.render(<PhaseBarView doc={doc} scaleEndUs={doc.totals.doneUs} />);
    const parts = [...view.host.querySelectorAll<SVGRectElement>('rect[data-phase]')];
    expect(parts.map((p) => [p.dataset['phase'], p.dataset['us']])).toEqual([
      ['beforeFirstWrite', '10'],
      ['awaiting', '294'],
      ['redisExec', '6'],
      ['clientBetween', '40'],
    ]);
    const rows = [...view.host.querySelectorAll('.phase-key tr')].map((tr) => tr.textContent);
    expect(rows).toEqual([
      'client before first write10 µsclient socket',
      'bytes out, replies awaited294 µsclient socket',
      'Redis executing6 µsRedis INFO commandstats',
      'client between a reply and its next write40 µsclient socket',
      'client after last read0 µsclient socket',
    ]);
    const explain = () => view.host.querySelector('[data-testid=phase-explain]')!.textContent;
    expect(explain()).toBe('Hover or focus a part for what it measured.');
    act(() => parts[2]!.dispatchEvent(new MouseEvent('mouseover', { bubbles: true })));
    expect(explain()).toBe(PHASE_TEXT.redisExec.explain);
    act(() => view.host.querySelector<HTMLElement>('[data-phase-key=afterLastRead]')!.focus());
    expect(explain()).toBe(PHASE_TEXT.afterLastRead.explain);
  });
});
