// Ready-made runs for presenters (state/network-presets.ts): one click sets the added RTT, jitter,
// command and N (and, for the netcat example, mode, engine and server trace), and the preset's
// one-line lesson is shown beside the buttons.
import { NETWORK_PRESETS, currentPreset, type NetworkPreset } from '../../state/network-presets.ts';
import type { RunFormState } from '../../state/run-form-state.ts';
import './network-presets-view.css';

interface Props {
  form: RunFormState;
  onApply: (preset: NetworkPreset) => void;
}

export function NetworkPresetsView({ form, onApply }: Props) {
  const current = currentPreset(form);
  return (
    <div className="presets" role="group" aria-label="Presets">
      <span className="presets-label">Presets</span>
      {NETWORK_PRESETS.map((preset) => (
        <button
          key={preset.id}
          type="button"
          className={preset === current ? 'chip on' : 'chip'}
          data-testid={`preset-${preset.id}`}
          aria-pressed={preset === current}
          title={preset.lesson}
          onClick={() => onApply(preset)}
        >
          {preset.label}
        </button>
      ))}
      {current && <span className="presets-lesson">{current.lesson}</span>}
    </div>
  );
}
