// "Copy link", in the header: the page's URL as it stands is already a link to what is on screen (the
// run form, the view, zoom=, t=, speed=, the ?trace= files, and stored= — the runs on screen the backend
// keeps for links: url/page-link.ts), so the button copies the page store's address (PageUrl.href). Where
// the Clipboard API is missing or refused (plain http on a LAN address is not a secure context), the link is
// shown in a small popover, selected, for Ctrl+C. A status line (aria-live) says what the link reproduces:
// the runs it names and how long such a link lives (trace/protocol/stored-runs.ts), and which runs on screen
// it cannot bring (cut short, too big to keep, opened from a file, or the static site, which keeps nothing).
import { useEffect, useId, useRef, useState } from 'react';
import { STORED_LINK_LIFETIME } from '../../../../trace/protocol/stored-runs.ts';
import { copyToClipboard } from '../../base/clipboard.ts';
import type { PageUrl } from '../../url/page-url.ts';
import './header-popover.css';
import './copy-link-view.css';

interface Props {
  url: PageUrl;
  /** Some runs on screen were measured or opened here and are neither ?trace= links nor kept by the backend: the link cannot bring them. */
  runsOutsideLink: boolean;
  /** Runs on screen the link names by their stored ids (kept by the backend), of `runsOnScreen`. */
  keptRuns?: number;
  runsOnScreen?: number;
  /** Brings the URL up to date first (the throttled display keys, the playhead while playing). */
  beforeCopy?: () => void;
  /** How long the status stays, ms. */
  statusMs?: number;
}

const REPRODUCES = 'it opens these settings, this view, zoom and position.';
const RUNS_NOTE = 'The runs themselves are not in the link: export them (Export) or use the follow link.';
const OTHERS_NOTE = 'The others are not in it (cut short, too big to keep, or not measured here): export them (Export).';

/** What the link opens: the runs it names, if any, then the settings. */
function reproduces(kept: number, onScreen: number): string {
  if (kept === 0) return REPRODUCES;
  const runs = kept < onScreen ? `${kept} of the ${onScreen} runs on screen` : kept === 1 ? 'this run' : `these ${kept} runs`;
  return `it opens ${runs}, these settings, this view, zoom and position.`;
}

export function CopyLinkView({ url, runsOutsideLink, keptRuns = 0, runsOnScreen = keptRuns, beforeCopy, statusMs = 10_000 }: Props) {
  const [status, setStatus] = useState('');
  const [fallback, setFallback] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const popoverId = useId();

  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => setStatus(''), statusMs);
    return () => clearTimeout(timer);
  }, [status, statusMs]);

  useEffect(() => {
    if (fallback === null) return;
    input.current?.focus();
    input.current?.select();
  }, [fallback]);

  const say = (first: string) =>
    setStatus([first, runsOutsideLink ? (keptRuns > 0 ? OTHERS_NOTE : RUNS_NOTE) : '', keptRuns > 0 ? STORED_LINK_LIFETIME : ''].filter(Boolean).join(' '));

  const copy = async () => {
    beforeCopy?.();
    const href = url.href();
    const opens = reproduces(keptRuns, runsOnScreen);
    if (await copyToClipboard(href)) {
      setFallback(null);
      say(`Link copied: ${opens}`);
      return;
    }
    setFallback(href); // no clipboard here, or refused: shown, selected, to copy by hand
    say(`Press Ctrl+C to copy the selected link: ${opens}`);
  };

  const close = () => {
    setFallback(null);
    button.current?.focus();
  };

  return (
    <div className="copy-link header-popover-anchor">
      <button
        ref={button}
        type="button"
        className="button"
        data-testid="copy-link"
        aria-expanded={fallback !== null}
        aria-controls={fallback !== null ? popoverId : undefined}
        title="Copy a link that opens this page as you see it"
        onClick={() => void copy()}
      >
        Copy link
      </button>
      <div className="copy-link-float header-popover-place">
        {fallback !== null && (
          <div
            id={popoverId}
            className="copy-link-popover header-popover-surface"
            role="dialog"
            aria-label="Link to this view"
            data-own-keys=""
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault();
                close();
              }
            }}
          >
            <label className="copy-field">
              <span>Link — press Ctrl+C (⌘C) to copy</span>
              <input ref={input} type="text" className="copy-field-text" readOnly value={fallback} data-testid="copy-link-input" onFocus={(e) => e.currentTarget.select()} />
            </label>
            <button type="button" className="link-button" onClick={close}>
              Close
            </button>
          </div>
        )}
        <p className="copy-link-status header-popover-surface" role="status" aria-live="polite" data-testid="copy-link-status">
          {status}
        </p>
      </div>
    </div>
  );
}
