// When a plain wheel over a diagram shows the "Ctrl + wheel to zoom" hint (interaction/wheel-intent.ts
// says why the plain wheel scrolls the page): on the first such wheel of the page only, whichever diagram
// it is over, and never again once the user has zoomed with the wheel or a pinch (they know the way;
// remembered in localStorage, so later visits stay quiet too). Storage may be blocked (privacy settings,
// a sandboxed embed frame): the hint then shows once per page, as it would on a first visit.

/** localStorage key: set once the user has zoomed with Ctrl/⌘ + wheel or a pinch. */
export const WHEEL_ZOOM_USED_KEY = 'pipescope.wheelZoomUsed';

export type HintStorage = Pick<Storage, 'getItem' | 'setItem'>;

export class WheelHintPolicy {
  private shown = false;
  private zoomUsed: boolean;

  constructor(private readonly storage: HintStorage | null) {
    this.zoomUsed = read(storage) === '1';
  }

  /** A plain vertical wheel over a diagram: true if the hint is to be shown now (at most once). */
  takeHint(): boolean {
    if (this.shown || this.zoomUsed) return false;
    this.shown = true;
    return true;
  }

  /** The user zoomed with the wheel (or a pinch): no hint from now on, on this visit or a later one. */
  zoomedWithWheel(): void {
    if (this.zoomUsed) return;
    this.zoomUsed = true;
    try {
      this.storage?.setItem(WHEEL_ZOOM_USED_KEY, '1');
    } catch {
      // storage blocked or full: this page still stays quiet
    }
  }
}

function read(storage: HintStorage | null): string | null {
  try {
    return storage?.getItem(WHEEL_ZOOM_USED_KEY) ?? null;
  } catch {
    return null;
  }
}

function pageStorage(): HintStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // reading window.localStorage itself throws where storage is blocked
  }
}

/** The page's one policy: every diagram of the page (the app's and its players') shares it. */
export const wheelHintPolicy = new WheelHintPolicy(pageStorage());
