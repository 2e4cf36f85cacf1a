// "Plant an error" in the run form (INCR runs only): operation K fails, at runtime (its key holds text,
// so INCR fails when Redis runs it) or while queueing (the command goes without its key, so Redis refuses
// it before running anything). Each kind says in a line what it shows. The schema's refusals (K ≥ N, a
// queueing error inside one EVAL) appear next to the field, as the server would word them.
import { useId } from 'react';
import { MAX_COMMANDS } from '../../../../trace/format/run-request.ts';
import type { FormErrors, RunFormState } from '../../state/run-form-state.ts';
import { FieldError, NumberInput } from './form-fields-view.tsx';
import './plant-error-view.css';

interface Props {
  form: RunFormState;
  errors: FormErrors;
  onChange: (patch: Partial<RunFormState>) => void;
}

const KINDS = [
  { kind: 'runtime', label: 'at runtime', note: 'its key holds text, so INCR fails when Redis runs it; the others still run (inside MULTI too)' },
  { kind: 'queueing', label: 'while queueing', note: 'sent without its key, so Redis refuses it before running it; inside MULTI, EXEC then aborts them all' },
] as const;

/**
 * The form keeps errorAt as the spec does, from 0; the field shows it from 1, as every number on screen
 * is ("operation 5 failed"). A half-typed value passes through unchanged.
 */
function shiftWhole(text: string, by: number): string {
  return /^\s*\d+\s*$/.test(text) ? String(Number(text) + by) : text;
}

export function PlantErrorView({ form, errors, onChange }: Props) {
  const id = useId();
  return (
    <fieldset className="field checks plant-error" data-testid="plant-error">
      <legend title="Does an error inside a pipeline or a transaction undo the commands around it? Plant one and read the keys afterwards.">Errors</legend>
      <label className="check">
        <input type="checkbox" data-testid="plant-error-on" checked={form.plantError} onChange={(e) => onChange({ plantError: e.target.checked })} />
        Plant an error
      </label>
      {form.plantError && (
        <>
          <span className="inline-field">
            <label htmlFor={`${id}-at`}>at operation</label>
            <NumberInput id={`${id}-at`} testId="error-at" className="tiny" value={shiftWhole(form.errorAt, 1)} min={1} max={MAX_COMMANDS} whole error={errors.errorAt} onChange={(typed) => onChange({ errorAt: shiftWhole(typed, -1) })} />
          </span>
          <FieldError id={`${id}-at`} error={errors.errorAt} />
          {KINDS.map(({ kind, label, note }) => (
            <label key={kind} className="check" title={note}>
              <input type="radio" name={`${id}-kind`} data-testid={`error-kind-${kind}`} checked={form.errorKind === kind} onChange={() => onChange({ errorKind: kind })} />
              {label} <span className="check-note kind-note">— {note}</span>
            </label>
          ))}
          <FieldError id={`${id}-kind`} error={errors.errorKind} />
        </>
      )}
    </fieldset>
  );
}
