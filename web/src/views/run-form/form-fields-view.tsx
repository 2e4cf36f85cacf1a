// The fields the run form and the sweep form share: a number input kept as typed text (so a half-typed
// value survives) and tied to its inline error, the command picker and the client (engine) picker. One markup for both forms,
// which validate with the shared schemas.
import { ENGINES, type Engine } from '../../../../trace/format/run-request.ts';
import { COMMAND_NAMES, type CommandName } from '../../../../trace/format/trace-format.ts';
import './form-fields-view.css';

interface NumberInputProps {
  id: string;
  testId: string;
  value: string;
  min: number;
  max: number;
  /** Whole numbers only (counts, bytes); milliseconds may have decimals. */
  whole?: boolean;
  className?: string;
  error: string | undefined;
  onChange: (text: string) => void;
}

export function NumberInput({ id, testId, value, min, max, whole = false, className, error, onChange }: NumberInputProps) {
  return (
    <input
      id={id}
      data-testid={testId}
      className={className}
      type="number"
      inputMode={whole ? 'numeric' : 'decimal'}
      min={min}
      max={max}
      step={whole ? 1 : 'any'}
      value={value}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${id}-error` : undefined}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <span className="field-error" id={`${id}-error`}>
      {error}
    </span>
  ) : null;
}

const COMMAND_NOTES: Partial<Record<CommandName, string>> = {
  'GET-COMPUTE-SET': 'Read a key, compute from its value, write the result back: the SET needs the GET’s reply, so a pipeline cannot batch it',
};

export function CommandField({ id, testId, value, onChange }: { id: string; testId: string; value: CommandName; onChange: (command: CommandName) => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>Command</label>
      <select id={id} data-testid={testId} value={value} onChange={(e) => onChange(e.target.value as CommandName)}>
        {COMMAND_NAMES.map((c) => (
          <option key={c} value={c} title={COMMAND_NOTES[c]}>
            {c}
          </option>
        ))}
      </select>
      {COMMAND_NOTES[value] && (
        <span className="field-note below command-note" data-testid="command-note">
          read, compute, write back
        </span>
      )}
    </div>
  );
}

const ENGINE_LABELS: Record<Engine, string> = { ioredis: 'ioredis', raw: 'raw socket', 'node-redis': 'node-redis' };

const ENGINE_HINTS: Partial<Record<Engine, string>> = {
  'node-redis': 'pipelines same-tick commands by itself',
  raw: 'pre-encoded bytes; PING goes inline',
};

export function EngineField({ id, testId, value, onChange }: { id: string; testId: string; value: Engine; onChange: (engine: Engine) => void }) {
  const hint = ENGINE_HINTS[value];
  return (
    <div className="field">
      <label
        htmlFor={id}
        title="Who writes the commands: ioredis, node-redis (which pipelines commands issued in the same tick by itself), or a plain socket with pre-encoded commands (PING goes inline, as PING\r\n)"
      >
        Client
      </label>
      <select id={id} data-testid={testId} value={value} onChange={(e) => onChange(e.target.value as Engine)}>
        {ENGINES.map((engine) => (
          <option key={engine} value={engine}>
            {ENGINE_LABELS[engine]}
          </option>
        ))}
      </select>
      {hint && (
        <span className="field-note below engine-hint" data-testid="engine-hint">
          {hint}
        </span>
      )}
    </div>
  );
}
