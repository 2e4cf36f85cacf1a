import { describe, expect, it } from 'vitest';
import { neighborTrace } from '../../test-support/neighbor-fixtures.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { pipelineTrace } from '../../test-support/trace-fixtures.ts';
import { NeighborView } from './neighbor-view.tsx';

describe('NeighborView', () => {
  const view = useReactHost();
  const q = (id: string) => view.host.querySelector<HTMLElement | SVGElement>(`[data-testid=${id}]`);

  it('shows nothing for a run with neither a neighbour nor the held-connection probe', () => {
    view.render(<NeighborView doc={pipelineTrace(10)} />);
    expect(view.host.innerHTML).toBe('');
  });

  it('the verdict with its source, the p99s, the chart with the run marked, and the held-connection line', () => {
    view.render(<NeighborView doc={neighborTrace({ inside: 4, held: { issuedUs: 20, sameConnectionRepliedUs: 41_220, otherConnectionRepliedUs: 120 } })} />);
    expect(q('neighbor-inside')!.textContent).toBe('4 of the neighbour’s commands ran inside your pipeline MONITOR: between the run’s first and last execution on Redis (90 µs)');
    expect(q('neighbor-inside')!.dataset['value']).toBe('4');
    expect(q('neighbor-latency')!.dataset['p99During']).toBe('400');
    expect(q('neighbor-latency')!.dataset['p99Before']).toBe('50');
    expect(q('neighbor-chart')).not.toBeNull();
    expect(q('neighbor-run-span')).not.toBeNull();
    expect(Number(q('neighbor-max-line')!.getAttribute('data-points'))).toBeGreaterThan(10);
    expect(q('held-connection')!.textContent).toContain('A PING on the same connection waited 41.2 ms behind the pipeline; on a second connection 100 µs');
    expect(q('held-connection')!.dataset['sameUs']).toBe('41200');
  });

  it('the held-connection line alone when there was no neighbour', () => {
    view.render(<NeighborView doc={{ ...pipelineTrace(10), heldConnection: { issuedUs: 10, sameConnectionRepliedUs: 600, otherConnectionRepliedUs: 80 } }} />);
    expect(q('neighbor-inside')).toBeNull();
    expect(q('held-connection')!.dataset['otherUs']).toBe('70');
  });
});
