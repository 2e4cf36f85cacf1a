// Golden markup of the page's one tooltip (HTML, not SVG): what it says about a hovered command, plain
// and server-traced, as the diagram controller shows it; compared with __goldens__/tooltip-*.html
// (test-support/svg-golden.ts; UPDATE_GOLDENS=1 accepts a change). jsdom lays nothing out, so the
// tooltip's size is 0 × 0 and its place depends only on the pointer and jsdom's 1024 × 768 window.
import { afterEach, describe, expect, it } from 'vitest';
import { commandDetails } from '../format/command-details.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { expectGoldenMarkup } from '../test-support/svg-golden.ts';
import { sequentialTrace, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { spreadPipeline } from '../test-support/cluster-fixtures.ts';
import { KEYBOARD_HINT } from './diagram-controller.ts';
import { hideTooltip, showTooltip } from './tooltip-painter.ts';

const tooltip = () => document.querySelector<HTMLElement>('[role=tooltip]')!;

describe('tooltip goldens', () => {
  afterEach(() => hideTooltip());

  it('a command of a sequential run, opened from the keyboard', () => {
    showTooltip(commandDetails(traceColumns(sequentialTrace(10)), 3), 300, 200, KEYBOARD_HINT);
    expect(tooltip().hidden).toBe(false);
    expect(tooltip().textContent).toContain('INCR pipescope:test-sequential-10:counter');
    expectGoldenMarkup(tooltip(), import.meta.url, 'tooltip-sequential-incr-3.html');
  });

  it('a server-traced command: when Redis executed it, near the window’s bottom (shown above the pointer)', () => {
    showTooltip(commandDetails(traceColumns(serverTracedSequential(5)), 2), 300, 760);
    expect(tooltip().textContent).toMatch(/executed.*\(MONITOR\)/);
    expectGoldenMarkup(tooltip(), import.meta.url, 'tooltip-server-traced-incr-2.html');
  });

  it('a cluster command: its node, and its slot with the {hash tag} emphasised', () => {
    showTooltip(commandDetails(traceColumns(spreadPipeline(4, 'user42')), 1), 300, 200);
    const tags = [...tooltip().querySelectorAll('.hash-tag')];
    expect(tags.map((t) => t.textContent)).toEqual(['{user42}']);
    expect(tags[0]!.parentElement!.textContent).toMatch(/^\d+: hash tag \{user42\}, only it is hashed$/);
    expectGoldenMarkup(tooltip(), import.meta.url, 'tooltip-cluster-hash-tag.html');
  });

  it('hides and empties itself', () => {
    showTooltip(commandDetails(traceColumns(sequentialTrace(2)), 0), 10, 10);
    hideTooltip();
    expect(tooltip().hidden).toBe(true);
    expect(tooltip().childElementCount).toBe(0);
  });
});
