// Everything the page's URL hash carries, as one value: which view is shown, the run form (and the
// diagrams' scale), the depth sweep's form, and the display keys that hold whatever view is shown. One
// canonical writer (formatLink): the view's keys first — the run form's for the single-run view (no view=),
// view=sweep and the sweep's keys, view=gallery, view=history — then the display keys in DISPLAY_KEYS
// order. So the same screen gives the same link, byte for byte, and a link typed in any order reads the
// same. Unknown keys are ignored, bad values read as their defaults (link-fields.ts); nothing throws.
// The ids of the runs on screen kept by the backend (stored=, stored-link.ts) go with the run form's keys.
// The query (?trace=, ?follow=) is not here: the app reads it once (state/trace-files.ts, follow-link.ts).
import { VIEW_CHOICES, type ViewChoice } from '../state/page-choices.ts';
import { DISPLAY_KEYS, displayLinkEntries, parseDisplayLink, type DisplayLink } from './display-link.ts';
import { choice, fieldsOf, hashOf, hashParams } from './link-fields.ts';
import { RUN_KEYS, parseRunLink, runLinkEntries, type RunLink } from './run-link.ts';
import { DEFAULT_SWEEP_LINK, SWEEP_KEYS, parseSweepLink, sweepLinkEntries, type SweepLink } from './sweep-link.ts';
import { STORED_KEY, parseStoredLink, storedLinkEntries } from './stored-link.ts';

export interface PageLink {
  view: ViewChoice;
  /** The run form's settings: in the link while the single-run view is shown, kept meanwhile. */
  run: RunLink;
  /** The depth sweep's settings: in the link while the sweep is shown, kept meanwhile. */
  sweep: SweepLink;
  display: DisplayLink;
  /** The stored ids of the runs on screen (stored-link.ts), in the order shown: with the run form's keys. Absent: none. */
  stored?: readonly string[];
}

/** A change to the link: a view, a whole form, some display keys. */
export interface LinkPatch {
  view?: ViewChoice;
  run?: RunLink;
  sweep?: SweepLink;
  display?: Partial<DisplayLink>;
  stored?: readonly string[];
}

const viewField = choice(VIEW_CHOICES).catch('run');

/**
 * The link a hash describes. Opening a page (`previous` undefined), the run form reads its keys whatever
 * the view, and the sweep its own only under view=sweep. A navigation (`previous`: the link before it)
 * changes a form only when it shows that form's view; the other keeps what it had.
 */
export function parseLink(hash: string, previous?: PageLink): PageLink {
  const params = hashParams(hash);
  const view = viewField.parse(params.get('view') ?? undefined);
  const readRun = previous === undefined || view === 'run';
  return {
    view,
    run: readRun ? parseRunLink(fieldsOf(params, RUN_KEYS)) : previous.run,
    sweep: view === 'sweep' ? parseSweepLink(fieldsOf(params, SWEEP_KEYS)) : (previous?.sweep ?? DEFAULT_SWEEP_LINK),
    display: parseDisplayLink(fieldsOf(params, DISPLAY_KEYS)),
    ...storedPart(readRun ? parseStoredLink(params.get(STORED_KEY)) : (previous.stored ?? [])),
  };
}

/** The stored ids as a link holds them: absent when none. */
const storedPart = (ids: readonly string[]): Pick<PageLink, 'stored'> => (ids.length > 0 ? { stored: ids } : {});

/** The view's keys, in link order. */
function viewEntries(link: PageLink): [string, string][] {
  switch (link.view) {
    case 'run':
      return [...runLinkEntries(link.run), ...storedLinkEntries(link.stored ?? [])];
    case 'sweep':
      return [['view', 'sweep'], ...sweepLinkEntries(link.sweep)];
    default:
      return [['view', link.view]];
  }
}

/** The hash for a link ('#…'), in the one canonical order. */
export function formatLink(link: PageLink): string {
  return hashOf([...viewEntries(link), ...displayLinkEntries(link.display)]);
}

/** Each part of a link as it reads back from its own keys (rounded, defaults dropped): what the URL holds. */
export function canonicalLink(link: PageLink): PageLink {
  const readBack = <T>(entries: [string, string][], keys: readonly string[], parse: (fields: Record<string, string>) => T) =>
    parse(fieldsOf(new URLSearchParams(entries), keys));
  return {
    view: link.view,
    run: readBack(runLinkEntries(link.run), RUN_KEYS, parseRunLink),
    sweep: readBack(sweepLinkEntries(link.sweep), SWEEP_KEYS, parseSweepLink),
    display: readBack(displayLinkEntries(link.display), DISPLAY_KEYS, parseDisplayLink),
    ...storedPart(parseStoredLink((link.stored ?? []).join('.'))),
  };
}

/** The link with a patch applied (not yet canonical: see canonicalLink). */
export function patchedLink(link: PageLink, patch: LinkPatch): PageLink {
  return {
    view: patch.view ?? link.view,
    run: patch.run ?? link.run,
    sweep: patch.sweep ?? link.sweep,
    display: patch.display ? { ...link.display, ...patch.display } : link.display,
    ...storedPart(patch.stored ?? link.stored ?? []),
  };
}
