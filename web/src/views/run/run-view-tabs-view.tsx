// The Diagram | Table switch of a run panel, as ARIA tabs: two tab buttons, ← / → (and Home / End) move
// between them while one has focus. Those keys are the page's playback keys elsewhere; here they are
// taken (preventDefault), as the playback listener expects of a control that owns them.
import { useRef, type KeyboardEvent } from 'react';
import './run-view-tabs-view.css';

export type RunViewChoice = 'diagram' | 'table';

const CHOICES: { value: RunViewChoice; label: string }[] = [
  { value: 'diagram', label: 'Diagram' },
  { value: 'table', label: 'Table' },
];

interface Props {
  /** Tab i has id `${idPrefix}-${value}-tab` and controls the panel `${idPrefix}-${value}`. */
  idPrefix: string;
  shown: RunViewChoice;
  onChange: (choice: RunViewChoice) => void;
}

export function RunViewTabs({ idPrefix, shown, onChange }: Props) {
  const listRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = CHOICES.findIndex((c) => c.value === shown);
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: CHOICES.length - 1 }[event.key];
    if (to === undefined || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    const index = (to + CHOICES.length) % CHOICES.length;
    onChange(CHOICES[index]!.value);
    listRef.current?.querySelectorAll<HTMLButtonElement>('[role=tab]')[index]?.focus();
  };
  return (
    <div className="run-view-tabs segmented-buttons" role="tablist" aria-label="Show this run as" ref={listRef} onKeyDown={onKeyDown}>
      {CHOICES.map((c) => (
        <button
          key={c.value}
          type="button"
          role="tab"
          id={`${idPrefix}-${c.value}-tab`}
          aria-controls={`${idPrefix}-${c.value}`}
          aria-selected={c.value === shown}
          tabIndex={c.value === shown ? 0 : -1}
          className={c.value === shown ? 'on' : ''}
          data-testid={`run-view-${c.value}`}
          onClick={() => onChange(c.value)}
        >
          {c.label}
        </button>
      ))}
    </div>
  );
}
