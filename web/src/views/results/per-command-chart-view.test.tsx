import { describe, expect, it } from 'vitest';
import { modeTrace } from '../../test-support/trace-fixtures.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { PerCommandChartView } from './per-command-chart-view.tsx';

describe('PerCommandChartView', () => {
  const view = useReactHost();

  it('divides by the operations each run did, not its commands on the wire, and says so', () => {
    // 10 INCRs in one pipeline (10 commands) and in one EVAL (1 command): one client write each.
    view.render(<PerCommandChartView traces={[modeTrace('pipeline', 10), modeTrace('eval', 10)]} />);
    const chart = view.host.querySelector('[data-testid=per-command-chart]')!;
    expect(chart.querySelector('figcaption')!.textContent).toMatch(/^I\/O per operation — .*divided by the operations each run did, not its commands on the wire/);
    const writes = [...chart.querySelectorAll('.bar-value')].slice(0, 2).map((t) => t.textContent);
    expect(writes).toEqual(['0.1  one pipeline · 1 ÷ 10 operations', '0.1  one EVAL script · 1 ÷ 10 operations']);
  });
});
