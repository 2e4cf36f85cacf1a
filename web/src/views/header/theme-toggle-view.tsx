// The theme toggle in the header: Auto (the system's scheme), Light or Dark, as three radio buttons
// drawn as one segmented control. The choice is remembered (state/theme-choice.ts: localStorage) and
// put in the URL's `theme` key (the page store); under Auto the page follows the system when it switches,
// e.g. at sunset. A link pasted into the address bar of an open page: its theme key wins, as on load.
import { useEffect, useState } from 'react';
import { applyThemeChoice, currentThemeChoice, linkedThemeOf, saveThemeChoice, THEME_CHOICES, watchSystemTheme, type ThemeChoice } from '../../state/theme-choice.ts';
import type { PageUrl } from '../../url/page-url.ts';
import { useNavigation } from '../app/use-navigation.ts';
import './theme-toggle-view.css';

const LABELS: Record<ThemeChoice, string> = { auto: 'Auto', light: 'Light', dark: 'Dark' };
const HINTS: Record<ThemeChoice, string> = {
  auto: 'Follow the system’s light or dark setting',
  light: 'Dark ink on light paper',
  dark: 'Light ink on dark paper',
};

export function ThemeToggleView({ url }: { url: PageUrl }) {
  const [choice, setChoice] = useState<ThemeChoice>(() => currentThemeChoice(url.link.display.theme));
  useNavigation(url, (link) => setChoice(currentThemeChoice(link.display.theme)));

  useEffect(() => {
    applyThemeChoice(choice);
    if (choice !== 'auto') return undefined;
    return watchSystemTheme(() => applyThemeChoice('auto'));
  }, [choice]);

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
              url.update({ display: { theme: linkedThemeOf(c) } });
              setChoice(c);
            }}
          />
          {LABELS[c]}
        </label>
      ))}
    </fieldset>
  );
}
