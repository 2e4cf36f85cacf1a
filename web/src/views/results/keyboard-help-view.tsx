// The keyboard help overlay (`?`): every key of the page — playback's media-player keys and the focused
// diagram's own — in a modal dialog. Focus moves to its close button when it opens and back to where it
// was when it closes (Esc, the button, or a click outside); Tab stays inside. data-own-keys keeps the
// page's playback keys away while it is open.
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { PLAYBACK_KEYS } from '../../interaction/playback-keys.ts';
import './keyboard-help-view.css';

interface Props {
  onClose: () => void;
}

export function KeyboardHelpView({ onClose }: Props) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    return () => before?.focus();
  }, []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'Tab') {
      // One control inside: Tab and Shift+Tab stay on it.
      event.preventDefault();
      closeRef.current?.focus();
    }
  };
  return (
    <div className="keyboard-help-backdrop" data-testid="keyboard-help-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="keyboard-help" role="dialog" aria-modal="true" aria-labelledby="keyboard-help-title" data-testid="keyboard-help" data-own-keys onKeyDown={onKeyDown}>
        <header>
          <h2 id="keyboard-help-title">Keyboard shortcuts</h2>
          <button ref={closeRef} type="button" className="button" data-testid="keyboard-help-close" onClick={onClose}>
            Close <kbd>Esc</kbd>
          </button>
        </header>
        <dl>
          {PLAYBACK_KEYS.map(({ keys, what }) => (
            <div key={what} className="keyboard-help-row">
              <dt>
                {keys.map((k) => (
                  <kbd key={k}>{k}</kbd>
                ))}
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
