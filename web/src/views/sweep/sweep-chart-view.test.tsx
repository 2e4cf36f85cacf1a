import { describe, expect, it } from 'vitest';
import { seriesOfDocument } from '../../model/sweep-series.ts';
import { sweepDocument } from '../../test-support/sweep-fixtures.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { SweepChartView } from './sweep-chart-view.tsx';

describe('SweepChartView', () => {
  const view = useReactHost();

  it('says what its ops/s measure: operations ÷ (t0 → last reply), as totals.opsPerSec does, not "first write → last reply"', () => {
    view.render(<SweepChartView series={seriesOfDocument(sweepDocument())} engine="ioredis" yScale="log" onYScaleChange={() => {}} state="done" />);
    const text = view.host.textContent!;
    expect(text).toContain('Pipescope: client socket, operations ÷ (t0 → last reply)');
    expect(text).not.toContain('first write');
    const point = view.host.querySelector('[data-testid=sweep-point] title, [data-testid=sweep-point]');
    expect(point).not.toBeNull();
    expect(view.host.innerHTML).not.toContain('first write → last reply');
  });
});
