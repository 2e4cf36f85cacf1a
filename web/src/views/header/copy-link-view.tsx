// "Copy link", in the header: the page's URL as it stands is already a link to what is on screen (the
// run form, the view, zoom=, t=, speed= and the ?trace= files: url/page-link.ts), so the button copies
// the page store's address (PageUrl.href). Where the Clipboard API is missing or refused (plain http on a LAN address is not
// a secure context), the link is shown in a small popover, selected, for Ctrl+C. A status line (aria-live)
// says what the link reproduces — and, when the runs on screen came from this session rather than from
// ?trace= links, that the runs themselves are not in it.
import { useEffect, useId, useRef, useState } from 'react';
import { copyToClipboard } from '../../base/clipboard.ts';
import type { PageUrl } from '../../url/page-url.ts';
import './header-popover.css';
import './copy-link-view.css';

interface Props {
  url: PageUrl;
  /** The runs on screen were measured or opened here (not ?trace= links): the link cannot bring them. */
  runsOutsideLink: boolean;
  /** Brings the URL up to date first (the throttled display keys, the playhead while playing). */
  beforeCopy?: () => void;
  /** How long the status stays, ms. */
  statusMs?: number;
}

const REPRODUCES = 'it opens these settings, this view, zoom and position.';
const RUNS_NOTE = 'The runs themselves are not in the link: export them (Export) or use the follow link.';

export function CopyLinkView({ url, runsOutsideLink, beforeCopy, statusMs = 10_000 }: Props) {
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

  const say = (first: string) => setStatus(runsOutsideLink ? `${first} ${RUNS_NOTE}` : first);

  const copy = async () => {
    beforeCopy?.();
    const href = url.href();
    if (await copyToClipboard(href)) {
      setFallback(null);
      say(`Link copied: ${REPRODUCES}`);
      return;
    }
    setFallback(href); // no clipboard here, or refused: shown, selected, to copy by hand
    say(`Press Ctrl+C to copy the selected link: ${REPRODUCES}`);
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
