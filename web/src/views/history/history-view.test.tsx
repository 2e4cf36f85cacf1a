// The History table's rules as a user meets them: newest request first with its runs together, a
// Compare button enabled for 2 to 6 picks, the 7th checkbox disabled with the reason shown, Pick these
// refused when a group would pass 6, Clear history only after a confirm step; off without IndexedDB.
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { FrameScheduler } from '../../base/frame-scheduler.ts';
import type { ChannelPort } from '../../live/live-channel.ts';
import { RunStore } from '../../live/run-store.ts';
import { SweepStore } from '../../live/sweep-store.ts';
import type { HistoryDb } from '../../state/history-db.ts';
import { HistoryStore } from '../../state/history-store.ts';
import { entrySummary } from '../../model/history-entries.ts';
import { memoryHistoryDb } from '../../test-support/memory-history-db.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { pipelineTrace, sequentialTrace } from '../../test-support/trace-fixtures.ts';
import { HistoryView } from './history-view.tsx';

const channel: ChannelPort = { isOpen: false, send: () => false, listen: () => () => {} };

/** A history holding `groups` groups of saved runs (summaries only: the table never reads a trace). */
async function historyWith(groups: number[][], opened?: Promise<HistoryDb | string>) {
  const db = memoryHistoryDb();
  let at = 1_000;
  groups.forEach((ns, g) => {
    for (const n of ns) {
      const doc = g % 2 === 0 ? sequentialTrace(n) : pipelineTrace(n);
      db.entries.set(doc.run.id, entrySummary(doc, { savedAt: at++, groupId: `group-${g}`, source: g % 2 === 0 ? 'live' : 'file', origin: g % 2 === 0 ? null : `run-${n}.json`, bytes: 1000 }));
    }
  });
  const scheduler = new FrameScheduler((cb) => (queueMicrotask(cb), 1), () => {});
  const runs = new RunStore(channel, scheduler);
  const history = new HistoryStore(opened ?? Promise.resolve(db), runs, new SweepStore(channel, scheduler), undefined, scheduler);
  await history.whenReady();
  await act(async () => {}); // the snapshot published
  return history;
}

describe('the History view', () => {
  const view = useReactHost();
  const all = (selector: string) => [...view.host.querySelectorAll<HTMLElement>(selector)];
  const boxes = () => all('[data-testid=history-pick]') as HTMLInputElement[];
  const compare = () => view.host.querySelector<HTMLButtonElement>('[data-testid=history-compare]')!;
  const hint = () => view.host.querySelector('[data-testid=history-compare-hint]')!.textContent;
  const click = (el: HTMLElement) => act(() => el.click());

  it('lists the newest group first, each group’s runs together, with its title', async () => {
    const history = await historyWith([[3, 4], [5], [6, 7, 8]]);
    view.render(<HistoryView history={history} shown onShowRuns={() => {}} />);
    expect(all('[data-testid=history-group-title]').map((t) => t.textContent)).toEqual(['Live request: 3 runs', 'Opened from a file', 'Live request: 2 runs']);
    expect(all('[data-testid=history-row]').map((r) => r.dataset['id'])).toEqual([
      'test-sequential-6', 'test-sequential-7', 'test-sequential-8', 'test-pipeline-5', 'test-sequential-3', 'test-sequential-4',
    ]);
    expect(all('[data-testid=history-row]')[3]!.textContent).toMatch(/file: run-5\.json/);
  });

  it('Compare is enabled for 2 to 6 picks; the 7th checkbox is disabled with the reason shown', async () => {
    const history = await historyWith([[3, 4, 5, 6], [7, 8, 9]]);
    view.render(<HistoryView history={history} shown onShowRuns={() => {}} />);
    expect(compare().disabled).toBe(true);
    expect(hint()).toBe('Pick 2 to 6 runs to compare (0 picked).');
    click(boxes()[0]!);
    expect(compare().disabled).toBe(true);
    click(boxes()[1]!);
    expect(compare().disabled).toBe(false);
    expect(compare().textContent).toBe('Compare selected (2)');
    for (const box of boxes().slice(2, 6)) click(box);
    expect(compare().disabled).toBe(false);
    expect(boxes().filter((b) => b.checked)).toHaveLength(6);
    const seventh = boxes()[6]!;
    expect(seventh.disabled).toBe(true);
    expect(seventh.title).toBe('At most 6 runs compare at once; clear one to pick another.');
    expect(hint()).toBe('At most 6 runs compare at once; clear one to pick another.');
    // A picked box stays free to clear, and clearing one frees the others.
    expect(boxes()[0]!.disabled).toBe(false);
    click(boxes()[0]!);
    expect(boxes()[6]!.disabled).toBe(false);
  });

  it('Pick these picks a whole group, unless that would pass 6', async () => {
    const history = await historyWith([[3, 4, 5, 6], [7, 8, 9]]);
    view.render(<HistoryView history={history} shown onShowRuns={() => {}} />);
    const [pipelines, sequentials] = all('[data-testid=history-pick-group]') as HTMLButtonElement[];
    click(pipelines!);
    expect(boxes().filter((b) => b.checked)).toHaveLength(3);
    expect(pipelines!.disabled).toBe(true); // all picked
    expect(sequentials!.disabled).toBe(true);
    expect(sequentials!.title).toBe('Picking these would make 7; at most 6 runs compare at once.');
  });

  it('Clear history asks first; Keep them keeps them, Delete all empties the table', async () => {
    const history = await historyWith([[3, 4]]);
    view.render(<HistoryView history={history} shown onShowRuns={() => {}} />);
    click(view.host.querySelector('[data-testid=history-clear]')!);
    expect(view.host.querySelector('.history-confirm')!.textContent).toMatch(/^Delete all 2 saved runs\?/);
    click(view.host.querySelector('[data-testid=history-clear-cancel]')!);
    expect(all('[data-testid=history-row]')).toHaveLength(2);
    click(view.host.querySelector('[data-testid=history-clear]')!);
    await act(async () => {
      view.host.querySelector<HTMLButtonElement>('[data-testid=history-clear-confirm]')!.click();
      await history.settled();
    });
    expect(all('[data-testid=history-row]')).toHaveLength(0);
    expect(view.host.querySelector('[data-testid=history-empty]')).not.toBeNull();
    expect(view.host.querySelector<HTMLButtonElement>('[data-testid=history-clear]')!.disabled).toBe(true);
  });

  it('Delete removes one run, and its pick', async () => {
    const history = await historyWith([[3, 4, 5]]);
    view.render(<HistoryView history={history} shown onShowRuns={() => {}} />);
    click(boxes()[0]!);
    click(boxes()[1]!);
    await act(async () => {
      all('[data-testid=history-delete]')[0]!.click();
      await history.settled();
    });
    expect(all('[data-testid=history-row]').map((r) => r.dataset['id'])).toEqual(['test-sequential-4', 'test-sequential-5']);
    expect(compare().textContent).toBe('Compare selected (1)');
  });

  it('says the history is off, and why, without IndexedDB', async () => {
    const history = await historyWith([], Promise.resolve('this browser offers no IndexedDB'));
    view.render(<HistoryView history={history} shown onShowRuns={() => {}} />);
    expect(view.host.querySelector('[data-testid=history-off]')!.textContent).toBe('History is off: this browser offers no IndexedDB. Runs still work; they are not kept.');
    expect(view.host.querySelector('[data-testid=history-compare]')).toBeNull();
  });
});
