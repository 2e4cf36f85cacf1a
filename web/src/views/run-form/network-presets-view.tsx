// Ready-made runs for presenters (state/network-presets.ts), as one menu in the form's bar: picking one
// sets the added RTT, jitter, command and N (and, for the netcat example, mode, engine and server trace).
// The menu shows the preset the form now matches; its one-line lesson (PresetLessonView) goes in the
// line under the bar, where the form says what Run will do.
import { useId } from 'react';
import { CLUSTER_ONLY, NETWORK_PRESETS, currentPreset, type NetworkPreset } from '../../state/network-presets.ts';
import type { RunFormState } from '../../state/run-form-state.ts';
import './network-presets-view.css';

interface Props {
  form: RunFormState;
  onApply: (preset: NetworkPreset) => void;
  /** The backend's Redis is a node of a cluster: its presets are offered (elsewhere they are shown, not offered). */
  cluster?: boolean;
}

export function NetworkPresetsView({ form, onApply, cluster = false }: Props) {
  const id = useId();
  const current = currentPreset(form);
  return (
    <div className="field presets">
      <label htmlFor={id}>Preset</label>
      <select
        id={id}
        data-testid="preset"
        value={current?.id ?? ''}
        title={current?.lesson ?? 'Ready-made runs: a link speed, a large job in chunks, the batching lessons'}
        onChange={(e) => {
          const preset = NETWORK_PRESETS.find((p) => p.id === e.target.value);
          if (preset) onApply(preset);
        }}
      >
        <option value="" disabled>
          Ready-made runs…
        </option>
        {NETWORK_PRESETS.map((preset) => {
          const unavailable = preset.cluster === true && !cluster;
          return (
            <option key={preset.id} value={preset.id} disabled={unavailable} title={unavailable ? `${CLUSTER_ONLY} ${preset.lesson}` : preset.lesson}>
              {preset.label}{unavailable ? ' (a Redis Cluster only)' : ''}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** The lesson of the preset the form matches, if any. */
export function PresetLessonView({ form }: { form: RunFormState }) {
  const current = currentPreset(form);
  return current ? (
    <span className="presets-lesson" data-testid="preset-lesson">
      {current.label}: {current.lesson}
    </span>
  ) : null;
}
