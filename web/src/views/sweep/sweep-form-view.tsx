// The depth-sweep form: command (and value size for SET/GET), depths (1, 2, 4, … up to a maximum, or
// a typed list), commands per point, repeats, client engine, added RTT and the redis-benchmark
// reference; Run / Cancel. Validated with the shared SweepSpecSchema as the user types, each message
// next to its field, and a plan line computed from the inputs alone.
import { useId } from 'react';
import { MAX_ADDED_RTT_MS, MAX_COMMANDS, MAX_VALUE_BYTES, commandTakesValue } from '../../../../trace/format/run-request.ts';
import { MAX_SWEEP_REPEATS, type SweepSpec } from '../../../../trace/format/sweep-format.ts';
import { formatCount } from '../../format/number-format.ts';
import { sweepPlanText } from '../../format/sweep-text.ts';
import { MAX_DEPTH_CHOICES, validateSweepForm, type SweepFormState } from '../../state/sweep-form-state.ts';
import { CommandField, EngineField, FieldError, NumberInput } from '../run-form/form-fields-view.tsx';

interface Props {
  form: SweepFormState;
  onChange: (form: SweepFormState) => void;
  onRun: (spec: SweepSpec) => void;
  onCancel: () => void;
  running: boolean;
  cancelling: boolean;
  /** Why Run is unavailable right now (no backend, Redis down, a run under way), or null. */
  blockedReason: string | null;
}

const CUSTOM = 'custom';

export function SweepFormView({ form, onChange, onRun, onCancel, running, cancelling, blockedReason }: Props) {
  const id = useId();
  const result = validateSweepForm(form);
  const errors = result.ok ? {} : result.errors;
  const set = (patch: Partial<SweepFormState>) => onChange({ ...form, ...patch });
  return (
    <form
      className="run-form sweep-form"
      noValidate
      aria-label="Depth sweep"
      onSubmit={(event) => {
        event.preventDefault();
        if (result.ok && !running && !blockedReason) onRun(result.spec);
      }}
    >
      <CommandField id={`${id}-command`} testId="sweep-command" value={form.command} onChange={(command) => set({ command })} />
      {commandTakesValue(form.command) && (
        <div className="field">
          <label htmlFor={`${id}-value`}>Value size (bytes)</label>
          <NumberInput id={`${id}-value`} testId="sweep-value-bytes" className="narrow" value={form.valueBytes} min={0} max={MAX_VALUE_BYTES} whole error={errors.valueBytes} onChange={(valueBytes) => set({ valueBytes })} />
          <FieldError id={`${id}-value`} error={errors.valueBytes} />
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-depths`} title="Pipeline depth: commands per pipeline; each depth is one point of the chart">
          Depths
        </label>
        <div className="depth-inputs">
          <select
            id={`${id}-depths`}
            data-testid="sweep-max-depth"
            value={form.depthsMode === 'list' ? CUSTOM : String(form.maxDepth)}
            aria-invalid={errors.depths && form.depthsMode === 'max' ? true : undefined}
            aria-describedby={errors.depths ? `${id}-depths-error` : undefined}
            onChange={(e) => (e.target.value === CUSTOM ? set({ depthsMode: 'list' }) : set({ depthsMode: 'max', maxDepth: Number(e.target.value) }))}
          >
            {MAX_DEPTH_CHOICES.map((max) => (
              <option key={max} value={max}>
                1, 2, 4 … {formatCount(max)}
              </option>
            ))}
            <option value={CUSTOM}>my own list…</option>
          </select>
          {form.depthsMode === 'list' && (
            <input
              data-testid="sweep-depths"
              className="depth-list"
              type="text"
              inputMode="numeric"
              aria-label="Depths, comma-separated"
              placeholder="1,2,4,8,100,1000"
              value={form.depthList}
              aria-invalid={errors.depths ? true : undefined}
              aria-describedby={errors.depths ? `${id}-depths-error` : undefined}
              onChange={(e) => set({ depthList: e.target.value })}
            />
          )}
        </div>
        <FieldError id={`${id}-depths`} error={errors.depths} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-per-point`} title="Commands sent at each depth, per repeat">
          Commands / point
        </label>
        <NumberInput id={`${id}-per-point`} testId="sweep-per-point" value={form.perPoint} min={1} max={MAX_COMMANDS} whole error={errors.perPoint} onChange={(perPoint) => set({ perPoint })} />
        <FieldError id={`${id}-per-point`} error={errors.perPoint} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-repeats`} title="Runs at each depth; the chart shows their median and range">
          Repeats
        </label>
        <NumberInput id={`${id}-repeats`} testId="sweep-repeats" className="tiny" value={form.repeats} min={1} max={MAX_SWEEP_REPEATS} whole error={errors.repeats} onChange={(repeats) => set({ repeats })} />
        <FieldError id={`${id}-repeats`} error={errors.repeats} />
      </div>
      <EngineField id={`${id}-engine`} testId="sweep-engine" value={form.engine} onChange={(engine) => set({ engine })} />
      <div className="field">
        <label htmlFor={`${id}-rtt`} title="Round-trip time added by the backend's TCP delay proxy; 0 connects directly">
          Added RTT (ms)
        </label>
        <NumberInput id={`${id}-rtt`} testId="sweep-rtt-ms" className="narrow" value={form.rttMs} min={0} max={MAX_ADDED_RTT_MS} error={errors.rttMs} onChange={(rttMs) => set({ rttMs })} />
        <FieldError id={`${id}-rtt`} error={errors.rttMs} />
      </div>
      <div className="field reference-field">
        <label className="check" title="redis-benchmark -c 1 -P <depth> -n <commands per point>, at each depth, after Pipescope's runs">
          <input type="checkbox" data-testid="sweep-reference" checked={form.reference} onChange={(e) => set({ reference: e.target.checked })} />
          also run redis-benchmark (reference)
        </label>
      </div>
      <div className="field actions">
        {running ? (
          <button type="button" className="button danger" data-testid="sweep-cancel" onClick={onCancel} disabled={cancelling}>
            {cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        ) : (
          <button
            type="submit"
            className="button primary"
            data-testid="sweep-run"
            disabled={!result.ok || blockedReason !== null}
            title={blockedReason ?? (result.ok ? 'Run the sweep against Redis now' : 'Fix the highlighted field first')}
          >
            Run sweep
          </button>
        )}
      </div>
      {errors.form || errors.command || errors.engine ? (
        <p className="field-error form-error">{errors.form ?? errors.command ?? errors.engine}</p>
      ) : (
        result.ok && (
          <p className="sweep-plan" data-testid="sweep-plan">
            {sweepPlanText(result.spec)}
          </p>
        )
      )}
    </form>
  );
}
