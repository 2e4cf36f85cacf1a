// "Skip to results": the page's first Tab stop, hidden until it has the focus (app-view.css), so that a
// keyboard or screen-reader user reaches the diagrams in one Enter instead of tabbing through the header
// and the run form. It moves the focus to the results region (ResultsView, id RESULTS_ID), or to the main
// landmark when there are no results (an empty Runs view, another view). The page's hash holds its state
// (url/page-url.ts), so the link does not navigate to #results: it moves the focus itself.
import type { MouseEvent } from 'react';

/** The results region's id (ResultsView's <section>). */
export const RESULTS_ID = 'results';
/** The main landmark's id (AppView's <main>). */
export const MAIN_ID = 'main';

function skipToResults(event: MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
  const target = document.getElementById(RESULTS_ID) ?? document.getElementById(MAIN_ID);
  target?.focus();
}

export function SkipLinkView() {
  return (
    <a className="skip-link" href={`#${RESULTS_ID}`} data-testid="skip-link" onClick={skipToResults}>
      Skip to results
    </a>
  );
}
