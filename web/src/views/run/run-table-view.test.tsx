import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { histogramDomain } from '../../layout/latency-histogram-layout.ts';
import { runGroups } from '../../model/run-groups.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { pipelineTrace, serverTracedPipeline } from '../../test-support/trace-fixtures.ts';
import { RunPanelView } from './run-panel-view.tsx';
import { RunTableView } from './run-table-view.tsx';

describe('RunTableView', () => {
  const view = useReactHost();
  const rows = () => [...view.host.querySelectorAll('[data-testid=run-table-row]')];
  const click = (testId: string) => act(() => view.host.querySelector<HTMLElement>(`[data-testid=${testId}]`)!.click());

  it('is a table with a caption, column and row heads, one row per command', () => {
    view.render(<RunTableView doc={serverTracedPipeline(3)} label="the pipeline run, 3 × INCR" />);
    const table = view.host.querySelector('table')!;
    expect(table.caption?.textContent).toMatch(/^Commands of the pipeline run, 3 × INCR, one row each .*µs since t0.*MONITOR/);
    expect([...table.querySelectorAll('thead th')].map((th) => [th.getAttribute('scope'), th.textContent])).toContainEqual(['col', 'sent at (µs since t0)']);
    expect(rows()).toHaveLength(3);
    expect([...rows()[2]!.children].map((c) => c.textContent)).toEqual(['3', 'INCR', '1', '10', '1', '503', '493', '302', '3']);
    expect(rows()[2]!.firstElementChild?.getAttribute('scope')).toBe('row');
    // One page: no page controls.
    expect(view.host.querySelector('[data-testid=table-next]')).toBeNull();
  });

  it('pages a large run: First / Previous / Next / Last and a page number', () => {
    // Pages of 10 rows (100 in the app) keep jsdom quick; the paging is the same.
    view.render(<RunTableView doc={pipelineTrace(105)} label="a big run" pageRows={10} />);
    const numbers = () => rows().map((r) => r.firstElementChild!.textContent);
    const range = () => view.host.querySelector('[data-testid=run-table-range]')!.textContent;
    expect(rows()).toHaveLength(10);
    expect(range()).toBe('Commands 1–10 of 105');
    expect(view.host.querySelector<HTMLButtonElement>('[data-testid=table-previous]')!.disabled).toBe(true);
    click('table-next');
    expect(numbers()[0]).toBe('11');
    click('table-last');
    expect(range()).toBe('Commands 101–105 of 105');
    expect(rows()).toHaveLength(5);
    expect(view.host.querySelector<HTMLButtonElement>('[data-testid=table-next]')!.disabled).toBe(true);
    const input = view.host.querySelector<HTMLInputElement>('[data-testid=table-page]')!;
    expect(input.value).toBe('11');
    act(() => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setValue.call(input, '4');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    act(() => input.form!.requestSubmit());
    expect(numbers()[0]).toBe('31');
    click('table-first');
    expect(numbers()[0]).toBe('1');
  });
});

describe('the Diagram | Table switch of a run panel', () => {
  const view = useReactHost();

  it('tabs: Table shows the table in place of the diagram, ← / → move between the tabs', () => {
    const doc = pipelineTrace(10);
    const [group] = runGroups([doc]);
    view.render(
      <RunPanelView group={group!} doc={doc} onPickRepeat={() => {}} domainEndUs={1000} phaseEndUs={1000} latencyDomain={histogramDomain([])} zoomSync={new TimeZoomSync()} onExport={() => {}} />,
    );
    act(() => frameScheduler.flush());
    const tab = (name: string) => view.host.querySelector<HTMLButtonElement>(`[data-testid=run-view-${name}]`)!;
    const diagramPanel = () => view.host.querySelector<HTMLElement>('.diagram-host')!.parentElement!;
    expect(view.host.querySelector('[role=tablist]')?.getAttribute('aria-label')).toBe('Show this run as');
    expect(tab('diagram').getAttribute('aria-selected')).toBe('true');
    expect(diagramPanel().hidden).toBe(false);
    expect(view.host.querySelector('[data-testid=run-table]')).toBeNull();

    act(() => tab('table').click());
    expect(tab('table').getAttribute('aria-selected')).toBe('true');
    expect(diagramPanel().hidden).toBe(true);
    const table = view.host.querySelector('[data-testid=run-table]')!;
    expect(table.closest('[role=tabpanel]')?.getAttribute('aria-labelledby')).toBe(tab('table').id);
    expect(table.querySelectorAll('[data-testid=run-table-row]')).toHaveLength(10);

    const key = new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true });
    act(() => tab('table').dispatchEvent(key));
    expect(key.defaultPrevented).toBe(true);
    expect(tab('diagram').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab('diagram'));
    expect(view.host.querySelector('[data-testid=run-table]')).toBeNull();
  });
});
