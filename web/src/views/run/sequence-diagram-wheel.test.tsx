// A plain wheel over a diagram in jsdom: the page's (not prevented, no zoom); the page moves under the
// still pointer, so the pointer's tooltip goes, while the keyboard cursor's stays; the first such wheel
// shows the zoom hint, once.
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { serverTracedPipeline } from '../../test-support/trace-fixtures.ts';
import { SequenceDiagramView } from './sequence-diagram-view.tsx';

describe('a plain wheel over the diagram', () => {
  const view = useReactHost();

  const setUp = () => {
    const zoomSync = new TimeZoomSync();
    view.render(<SequenceDiagramView doc={serverTracedPipeline(3)} domainEndUs={600} zoomSync={zoomSync} panelRef={{ current: view.host }} label="Diagram" />);
    act(() => frameScheduler.flush());
    const svg = view.host.querySelector<SVGSVGElement>('svg.diagram-svg')!;
    const dispatch = (event: Event) => act(() => {
      svg.dispatchEvent(event);
      frameScheduler.flush();
    });
    const wheel = () => {
      const event = new WheelEvent('wheel', { deltaY: 100, clientX: 300, clientY: 200, bubbles: true, cancelable: true });
      dispatch(event);
      return event;
    };
    const tooltip = () => document.querySelector<HTMLElement>('[role=tooltip]');
    return { svg, dispatch, wheel, tooltip, zoomSync };
  };

  it('is left to the page, drops the pointer\'s tooltip and shows the hint once', () => {
    const { svg, wheel, tooltip, zoomSync } = setUp();
    // The pointer on the first command's arrow.
    act(() => {
      svg.querySelector('[data-index="0"]')!.dispatchEvent(new MouseEvent('pointermove', { clientX: 300, clientY: 40, bubbles: true }));
      frameScheduler.flush();
    });
    expect(tooltip()?.hidden).toBe(false);
    const first = wheel();
    expect(first.defaultPrevented).toBe(false);
    expect(zoomSync.zoom).toEqual({ k: 1, ty: 0 });
    expect(tooltip()?.hidden).toBe(true);
    expect(view.host.querySelector('[data-testid=wheel-hint]')?.textContent).toBe('Ctrl + wheel to zoom');
    view.host.querySelector('[data-testid=wheel-hint]')!.remove();
    wheel();
    expect(view.host.querySelector('[data-testid=wheel-hint]')).toBeNull();
  });

  it('keeps the keyboard cursor\'s tooltip: the mark it is on does not move with the pointer', () => {
    const { dispatch, wheel, tooltip } = setUp();
    dispatch(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, cancelable: true }));
    expect(tooltip()?.hidden).toBe(false);
    wheel();
    expect(tooltip()?.hidden).toBe(false);
  });
});
