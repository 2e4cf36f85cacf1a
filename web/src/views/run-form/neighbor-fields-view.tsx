// The run form's other-clients fields: a neighbour client on its own connection issuing INCR
// or GET at a chosen rate during the run (does it get in between your commands? how long does it wait?),
// and the held-connection probe (one PING behind the run on its connection, one beside it on another).
// Kept apart from run-form-view.tsx; the neighbour's own view of its latency is drawn elsewhere.
import { useId } from 'react';
import { MAX_NEIGHBOR_RATE } from '../../../../trace/format/run-request.ts';
import { NEIGHBOR_COMMANDS } from '../../../../trace/format/trace-format.ts';
import type { FormErrors, RunFormState } from '../../state/run-form-state.ts';
import { FieldError, NumberInput } from './form-fields-view.tsx';
import './neighbor-fields-view.css';

interface Props {
  form: RunFormState;
  errors: FormErrors;
  onChange: (patch: Partial<RunFormState>) => void;
}

export function NeighborFieldsView({ form, errors, onChange }: Props) {
  const id = useId();
  return (
    <fieldset className="field checks neighbor-fields" data-testid="neighbor-fields">
      <legend title="Another application sharing the Redis, on its own connection">Other clients</legend>
      <span className="inline-field">
        <label htmlFor={`${id}-rate`}>neighbour</label>
        <NumberInput id={`${id}-rate`} testId="neighbor-rate" className="tiny" value={form.neighborRate} min={0} max={MAX_NEIGHBOR_RATE} error={errors.neighborRate} onChange={(neighborRate) => onChange({ neighborRate })} />
        <span className="check-note">/s</span>
        <select aria-label="Neighbour's command" data-testid="neighbor-command" value={form.neighborCommand} onChange={(e) => onChange({ neighborCommand: e.target.value as RunFormState['neighborCommand'] })}>
          {NEIGHBOR_COMMANDS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </span>
      <FieldError id={`${id}-rate`} error={errors.neighborRate} />
      <label className="check" title="One PING issued right behind the run on its own connection (it waits for every reply) and one at the same instant on a second connection">
        <input type="checkbox" data-testid="held-connection" checked={form.heldConnection} onChange={(e) => onChange({ heldConnection: e.target.checked })} />
        Held connection <span className="check-note">(a PING behind the run vs beside it)</span>
      </label>
    </fieldset>
  );
}
