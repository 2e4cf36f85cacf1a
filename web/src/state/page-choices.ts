// The page's choices that more than one feature names: which view is on screen (the tabs) and how the
// run diagrams share time (one µs axis, or each run its own). The URL carries both (url/page-link.ts);
// follow mode sends them (follow-display.ts); loaders say which view their documents want (show-loaded.ts).

/** The views of the page, one tab each; 'run' (single runs) is the default. */
export const VIEW_CHOICES = ['run', 'sweep', 'gallery', 'history', 'observe'] as const;
export type ViewChoice = (typeof VIEW_CHOICES)[number];

/** The diagrams' time scale: 'shared' (every run on the same µs axis, the default) or each run's 'own'. */
export const SCALE_CHOICES = ['shared', 'own'] as const;
export type ScaleChoice = (typeof SCALE_CHOICES)[number];
