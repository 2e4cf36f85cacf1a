// The diagram's keyboard cursor in jsdom: it walks every mark in time order, announces each mark's full
// label in its live region and rings it; the page's playback keys (←/→, Home/End, +/-) pass through.
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { pipelineTrace, serverTracedPipeline } from '../../test-support/trace-fixtures.ts';
import { SequenceDiagramView } from './sequence-diagram-view.tsx';

describe('the diagram’s keyboard cursor', () => {
  const view = useReactHost();

  const setUp = (doc = serverTracedPipeline(3), domainEndUs = 600) => {
    const zoomSync = new TimeZoomSync();
    const panelRef = { current: view.host };
    view.render(<SequenceDiagramView doc={doc} domainEndUs={domainEndUs} zoomSync={zoomSync} panelRef={panelRef} label="Diagram" />);
    act(() => frameScheduler.flush());
    const svg = view.host.querySelector<SVGSVGElement>('svg.diagram-svg')!;
    const press = (key: string, shiftKey = false) => {
      const event = new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true });
      act(() => {
        svg.dispatchEvent(event);
        frameScheduler.flush();
      });
      return event.defaultPrevented;
    };
    const live = () => view.host.querySelector('[data-testid=diagram-live]')!;
    const ring = () => view.host.querySelector('[data-testid=focus-ring]');
    return { svg, press, live, ring, zoomSync };
  };

  it('↓ walks commands, the read() syscall, the other client, executions, the write(), each announced and ringed', () => {
    const { svg, press, live, ring } = setUp();
    expect(svg.getAttribute('aria-label')).toMatch(/^Diagram\. ↑ and ↓ step through every mark .* C, E, S, O .* \] and \[ zoom in and out, 0 resets; Esc/);
    expect(live().getAttribute('aria-live')).toBe('polite');
    const kinds: string[] = [];
    for (let i = 0; i < 9; i++) {
      expect(press('ArrowDown')).toBe(true);
      kinds.push(ring()!.getAttribute('data-kind')!);
    }
    expect(kinds).toEqual(['command', 'command', 'command', 'syscall', 'other', 'execution', 'execution', 'execution', 'syscall']);
    expect(live().textContent).toMatch(/^Syscall 2 of 2: Redis write\(\)/);
    expect(press('ArrowUp', true)).toBe(true); // ×10 back: the first mark
    expect(live().textContent).toMatch(/^Command 1 of 3, INCR, sent in write 1 at 10 µs/);
    expect(document.querySelector('[role=tooltip]')?.textContent).toMatch(/command 1 of 3/);
  });

  it('letters jump by kind (Shift: back); Esc leaves', () => {
    const { press, live, ring } = setUp();
    press('o');
    expect(live().textContent).toMatch(/^Other client’s command 1 of 1: GET other/);
    press('e');
    expect(live().textContent).toMatch(/^Redis executed command 1 of 3/);
    press('S', true);
    expect(live().textContent).toMatch(/^Syscall 1 of 2: Redis read\(\)/);
    press('c');
    expect(live().textContent).toMatch(/^Syscall 1 of 2/); // no command after the read(): the cursor stays
    press('C', true);
    expect(live().textContent).toMatch(/^Command 3 of 3/); // the last command before it
    expect(press('Escape')).toBe(true);
    expect(ring()).toBeNull();
    expect(live().textContent).toBe('');
    expect(press('Escape')).toBe(false); // nothing to leave: Esc is the page's
  });

  it('leaves ←/→, Home/End and +/- to the page; ] [ 0 zoom', () => {
    const { press, zoomSync } = setUp();
    for (const key of ['ArrowLeft', 'ArrowRight', 'Home', 'End', '+', '-', ' ']) expect(press(key), key).toBe(false);
    expect(press(']')).toBe(true);
    expect(zoomSync.zoom.k).toBe(2);
    expect(press('[')).toBe(true);
    expect(zoomSync.zoom.k).toBe(1);
    press(']');
    expect(press('0')).toBe(true);
    expect(zoomSync.zoom.k).toBe(1);
  });

  it('density (canvas) mode: the cursor still walks the real commands and rings them over the canvas', () => {
    const { press, live, ring } = setUp(pipelineTrace(1000, 100, 10), 2000);
    expect(view.host.dataset['render']).toBe('canvas');
    press('ArrowDown', true);
    expect(live().textContent).toMatch(/^Command 10 of 1,000, INCR, sent in write 1 at/);
    press('ArrowDown', true);
    expect(live().textContent).toMatch(/^Command 20 of 1,000, INCR, sent in write 1 /);
    expect(ring()?.getAttribute('data-kind')).toBe('command');
  });

  it('pans the shared zoom to a mark outside the zoom window', () => {
    const { press, ring, zoomSync } = setUp();
    for (let i = 0; i < 4; i++) press(']'); // ×16, centred: the first commands (10 µs of 600) are out of view
    const panned = zoomSync.zoom.ty;
    press('ArrowDown');
    expect(ring()?.getAttribute('data-kind')).toBe('command');
    expect(zoomSync.zoom.k).toBe(16);
    expect(zoomSync.zoom.ty).not.toBe(panned);
    const y = Number(ring()!.getAttribute('y')) + 7; // the ring's top is 7 px above the request
    const clip = view.host.querySelector('clipPath rect')!;
    expect(y).toBeGreaterThanOrEqual(Number(clip.getAttribute('y')));
    expect(y).toBeLessThanOrEqual(Number(clip.getAttribute('y')) + Number(clip.getAttribute('height')));
  });
});
