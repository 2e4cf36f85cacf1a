// The results toolbar's Export button and its menu (the WAI-ARIA menu button pattern): the button
// opens a list of formats (state/run-exports.ts RUN_EXPORTS); ↓/↑, Home/End move between them, Enter
// or a click saves, Escape closes and gives the focus back to the button, Tab or a click elsewhere
// closes. An export that fails says why beside the button (role=alert), never a thrown error.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { RUN_EXPORTS, exportRuns, type RunExportFormat } from '../../state/run-exports.ts';
import './export-menu-view.css';

interface Props {
  /** Every run on screen, repeats included: Trace (JSON) saves them all in one file (one trace, or a bundle of them). */
  traces: readonly TraceDocument[];
  /** The runs shown (one repeat per run), in panel order: the other formats draw these. */
  docs: readonly TraceDocument[];
  /** Saves the runs on screen as one file (state/trace-files.ts downloadTraces). */
  onExportTraces: (traces: readonly TraceDocument[]) => void;
  /** The results section holding their diagrams (the SVG and PNG exports read what is painted there). */
  sectionRef: { readonly current: HTMLElement | null };
}

export function ExportMenuView({ traces, docs, onExportTraces, sectionRef }: Props) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role=menuitem]') ?? []);

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!wrapRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) buttonRef.current?.focus();
  };

  const choose = (format: RunExportFormat) => {
    close(true);
    setError(null);
    if (format === 'trace') {
      onExportTraces(traces);
      return;
    }
    setBusy(true);
    exportRuns(format, docs, sectionRef.current ?? document)
      .catch((e: unknown) => setError(`Could not export: ${(e as Error).message}`))
      .finally(() => setBusy(false));
  };

  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => list[(to + list.length) % list.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        move(at + 1);
        break;
      case 'ArrowUp':
        move(at - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(list.length - 1);
        break;
      case 'Escape':
        close(true);
        break;
      case 'Tab':
        setOpen(false);
        return; // the focus moves on as Tab would
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation(); // the page's playback keys (Home/End) must not also act
  };

  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
    }
  };

  return (
    <div className="export-menu" ref={wrapRef}>
      <button
        type="button"
        className="button"
        data-testid="export"
        ref={buttonRef}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={busy}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onButtonKey}
        title="Save the runs on screen: trace files, the diagram as SVG or PNG, tables as CSV, Mermaid or a text flow"
      >
        Export {traces.length > 1 ? `${traces.length} traces` : 'trace'}
      </button>
      {open && (
        <ul className="export-menu-list" role="menu" id={menuId} aria-label="Export as" ref={menuRef} onKeyDown={onMenuKey}>
          {RUN_EXPORTS.map((item) => (
            <li key={item.format} role="none">
              <button type="button" role="menuitem" tabIndex={-1} data-testid={`export-${item.format}`} title={item.title} onClick={() => choose(item.format)}>
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <span className="export-error" role="alert" data-testid="export-error">
          {error}
        </span>
      )}
    </div>
  );
}
