// The views of the page as tabs under the header, in the page's navigation landmark: single runs (sequence diagrams), the depth sweep
// (throughput against pipeline depth), the gallery of published benchmarks and the run history (with its
// count of saved runs). The choice is part of the URL (#view=sweep: url/page-link.ts).
import { useEffect, useRef } from 'react';
import type { ViewChoice } from '../../state/page-choices.ts';

const TABS: { view: ViewChoice; label: string; hint: string }[] = [
  { view: 'run', label: 'Single run', hint: 'Sequential vs pipelined runs, every request and reply drawn' },
  { view: 'sweep', label: 'Depth sweep', hint: 'Throughput against pipeline depth, with redis-benchmark beside it' },
  { view: 'gallery', label: 'Published benchmarks', hint: 'The write-ups’ own workloads, each run live beside its published figure' },
  { view: 'history', label: 'History', hint: 'The runs shown in this browser, kept across reloads: show one again or compare two to six' },
  { view: 'observe', label: 'Observe', hint: 'Point any Redis client or app at Pipescope and see how it really pipelines' },
];

/** Room left between a tab scrolled into view and the row's edge, px (the edge's shadow is 12). */
const TAB_EDGE_ROOM_PX = 16;

interface Props {
  view: ViewChoice;
  /** The static site has no backend to observe through: its tab is left out. */
  offline?: boolean;
  onChange: (view: ViewChoice) => void;
  sweepRunning: boolean;
  /** Saved runs in the history; null while it is opening or when it is off. */
  historyCount?: number | null;
}

export function ViewTabsView({ view, onChange, sweepRunning, historyCount = null, offline = false }: Props) {
  const nav = useRef<HTMLDivElement>(null);
  // On a phone the tabs are one row that scrolls sideways (sweep-view.css): the selected one is brought
  // into it, past the edge's shadow (px), without scrolling the page as scrollIntoView would.
  useEffect(() => {
    const row = nav.current;
    const on = row?.querySelector('[aria-selected=true]');
    if (!row || !on || row.scrollWidth <= row.clientWidth) return;
    const [box, tab] = [row.getBoundingClientRect(), on.getBoundingClientRect()];
    if (tab.left < box.left) row.scrollLeft -= box.left - tab.left + TAB_EDGE_ROOM_PX;
    else if (tab.right > box.right) row.scrollLeft += tab.right - box.right + TAB_EDGE_ROOM_PX;
  }, [view]);
  return (
    // A navigation landmark around the tabs (a <nav> given role=tablist would be none).
    <nav className="view-tabs-nav" aria-label="Views">
      <div className="view-tabs" role="tablist" aria-label="Views" ref={nav}>
        {TABS.filter((tab) => !(offline && tab.view === 'observe')).map((tab) => (
          <button
            key={tab.view}
            type="button"
            role="tab"
            className={view === tab.view ? 'on' : ''}
            aria-selected={view === tab.view}
            data-testid={`tab-${tab.view}`}
            title={tab.hint}
            onClick={() => onChange(tab.view)}
          >
            {tab.label}
            {tab.view === 'sweep' && sweepRunning && <span className="tab-badge">running</span>}
            {tab.view === 'history' && historyCount !== null && (
              <span className="tab-count" data-testid="history-count" aria-label={`${historyCount} saved`}>
                {historyCount}
              </span>
            )}
          </button>
        ))}
      </div>
    </nav>
  );
}
