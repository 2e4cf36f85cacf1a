// "Embed", in the header beside Copy link: a popover with the two snippets that put the runs on screen
// into someone else's page (state/embed-snippets.ts): the iframe of the embed page with its sizing script,
// and the <pipescope-player> tag. Each has a Copy button; where the Clipboard API is missing or refused
// (plain http on a LAN address is not a secure context) the snippet is selected for Ctrl+C instead, as
// Copy link does. Runs without a URL (measured here, opened from a file) are named by their export file,
// and the popover says in plain words to export them and put them beside the page.
import { useEffect, useId, useRef, useState } from 'react';
import { copyToClipboard } from '../../base/clipboard.ts';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import type { TraceSource } from '../../live/store-types.ts';
import { embedSnippets, type EmbedSnippets } from '../../state/embed-snippets.ts';
import { currentThemeChoice } from '../../state/theme-choice.ts';
import type { PageUrl } from '../../url/page-url.ts';
import './header-popover.css';
import './copy-link-view.css'; // .copy-field, shared with Copy link
import './embed-code-view.css';

interface Props {
  /** The traces on screen, and where they came from (only ?trace= links have URLs). */
  traces: readonly TraceDocument[];
  source: TraceSource | null;
  /** The page's URL: its address, theme and display keys. */
  url: PageUrl;
  /** Brings the URL's display keys (t=, speed=) up to date first. */
  beforeOpen?: () => void;
}

type SnippetKind = 'iframe' | 'element';

const LABELS: Record<SnippetKind, string> = {
  iframe: 'Iframe — works in any page; the script after it sizes the frame to its content',
  element: 'Custom element — one script and a tag, no frame',
};
const COPIED: Record<SnippetKind, string> = { iframe: 'Iframe code copied.', element: 'Custom element code copied.' };

/** The snippets for the page as it stands (its URL, theme and display keys). */
function snippetsNow(traces: readonly TraceDocument[], source: TraceSource | null, url: PageUrl): EmbedSnippets | null {
  const { display } = url.read();
  return embedSnippets({ href: url.href(), traces, source, theme: currentThemeChoice(display.theme), t: display.t, speed: display.speed });
}

export function EmbedCodeView({ traces, source, url, beforeOpen }: Props) {
  const [snippets, setSnippets] = useState<EmbedSnippets | null | 'closed'>('closed');
  const [status, setStatus] = useState('');
  const button = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const areas = useRef<Record<SnippetKind, HTMLTextAreaElement | null>>({ iframe: null, element: null });
  const popoverId = useId();
  const headingId = useId();
  const open = snippets !== 'closed';

  useEffect(() => {
    if (open) dialog.current?.focus();
  }, [open]);

  const toggle = () => {
    if (open) return close();
    beforeOpen?.();
    setStatus('');
    setSnippets(snippetsNow(traces, source, url));
  };

  const close = () => {
    setSnippets('closed');
    setStatus('');
    button.current?.focus();
  };

  const copy = async (kind: SnippetKind, text: string) => {
    if (await copyToClipboard(text)) {
      setStatus(COPIED[kind]);
      return;
    }
    // No clipboard here, or refused: selected, to copy by hand.
    const area = areas.current[kind];
    area?.focus();
    area?.select();
    setStatus('Press Ctrl+C (⌘C) to copy the selected code.');
  };

  return (
    <div className="embed-code header-popover-anchor">
      <button
        ref={button}
        type="button"
        className="button"
        data-testid="embed-code"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        title="Copy embed code: show these runs in your own page (an iframe or a <pipescope-player> tag)"
        onClick={toggle}
      >
        Embed
      </button>
      {open && (
        <div
          ref={dialog}
          id={popoverId}
          className="embed-code-popover header-popover-place header-popover-surface"
          role="dialog"
          aria-labelledby={headingId}
          tabIndex={-1}
          data-own-keys=""
          data-testid="embed-code-popover"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              close();
            }
          }}
        >
          <h2 id={headingId}>Copy embed code</h2>
          {snippets === null ? (
            <p data-testid="embed-code-empty">No run is on screen to embed: run one, open a trace file, or open a <code>?trace=</code> link first.</p>
          ) : (
            <>
              {snippets.toExport.length > 0 && (
                <p className="embed-code-note" data-testid="embed-code-export-note">
                  {snippets.toExport.length === 1 ? 'This run has' : 'These runs have'} no web address yet (measured here, or opened from a file), so the
                  code names {snippets.toExport.length === 1 ? 'its file' : 'their files'} <ExportNames names={snippets.toExport} />. Save{' '}
                  {snippets.toExport.length === 1 ? 'the trace' : 'each trace'} {snippets.toExport.length === 1 ? '(Save, on its panel)' : '(Save, on each panel)'} and put the file next to the page that shows it: for the iframe,
                  in the folder of the embed page (<code>{snippets.embedPage}</code>); for the custom element, beside your own page.
                </p>
              )}
              {(['iframe', 'element'] as const).map((kind) => (
                <div className="embed-code-snippet" key={kind}>
                  <label className="copy-field">
                    <span>{LABELS[kind]}</span>
                    <textarea
                      className="copy-field-text"
                      ref={(el) => {
                        areas.current[kind] = el;
                      }}
                      readOnly
                      rows={kind === 'iframe' ? 7 : 3}
                      spellCheck={false}
                      value={snippets[kind]}
                      data-testid={`embed-code-${kind}`}
                      onFocus={(e) => e.currentTarget.select()}
                    />
                  </label>
                  <button type="button" className="button" data-testid={`embed-code-copy-${kind}`} onClick={() => void copy(kind, snippets[kind])}>
                    Copy {kind === 'iframe' ? 'iframe' : 'custom element'}
                  </button>
                </div>
              ))}
            </>
          )}
          <div className="embed-code-foot">
            <p className="embed-code-status" role="status" aria-live="polite" data-testid="embed-code-status">
              {status}
            </p>
            <button type="button" className="link-button" onClick={close}>
              Close
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function ExportNames({ names }: { names: readonly string[] }) {
  return (
    <>
      {names.map((name, i) => (
        <span key={name}>
          {i > 0 ? ', ' : ''}
          <code>{name}</code>
        </span>
      ))}
    </>
  );
}
