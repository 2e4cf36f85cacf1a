// The theme toggle in the header: Auto (the system's scheme), Light or Dark, as three radio buttons
// drawn as one segmented control. The choice is remembered (state/theme-choice.ts: localStorage and the
// URL's `theme` key); under Auto the page follows the system when it switches, e.g. at sunset.
import { useEffect, useState } from 'react';
import { applyThemeChoice, currentThemeChoice, saveThemeChoice, THEME_CHOICES, watchSystemTheme, type ThemeChoice } from '../../state/theme-choice.ts';
import './theme-toggle-view.css';

const LABELS: Record<ThemeChoice, string> = { auto: 'Auto', light: 'Light', dark: 'Dark' };
const HINTS: Record<ThemeChoice, string> = {
  auto: 'Follow the system’s light or dark setting',
  light: 'Dark ink on light paper',
  dark: 'Light ink on dark paper',
};

export function ThemeToggleView() {
  const [choice, setChoice] = useState<ThemeChoice>(currentThemeChoice);

  useEffect(() => {
    applyThemeChoice(choice);
    if (choice !== 'auto') return undefined;
    return watchSystemTheme(() => applyThemeChoice('auto'));
  }, [choice]);

  // A link pasted into the address bar of an open page: its theme key wins, as on load.
  useEffect(() => {
    const onHash = () => setChoice(currentThemeChoice());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  return (
    <fieldset className="theme-toggle" data-testid="theme-toggle">
      <legend className="visually-hidden">Colour theme</legend>
      {THEME_CHOICES.map((c) => (
        <label key={c} className={c === choice ? 'on' : ''} title={HINTS[c]}>
          <input
            type="radio"
            className="visually-hidden"
            name="theme"
            value={c}
            checked={c === choice}
            data-testid={`theme-${c}`}
            onChange={() => {
              saveThemeChoice(c);
              setChoice(c);
            }}
          />
          {LABELS[c]}
        </label>
      ))}
    </fieldset>
  );
}
