// The run form: one bar of the everyday choices — command, count, value size (SET/GET only), mode (one,
// or a comparison), the chunk size (when a chunked run is asked for), added delay, the presets, Run /
// Cancel — and under it one line saying what Run will do (what each mode puts on the wire) with the way
// into the tour. The rest folds under "More options" (its state in the link, options=1): jitter, client
// engine, repeats, a cold connection, memory sampling (in a memory repeat; on by itself for runs that
// can move memory), the two Redis-side probes (MONITOR and strace, each with its cost). A field with an
// error unfolds them, so no message hides. Validated with the shared RunSpecSchema as the user types,
// messages shown next to the field they concern.
// Beyond plain pipelines: the modes (each with what it puts on the wire; those the spec would
// refuse for this command or engine disabled, with the reason), a custom pick of modes to compare, the
// chunk pause, a planted error (plant-error-view.tsx) and the neighbour fields (neighbor-fields-view.tsx).
import { useId, type ReactNode } from 'react';
import {
  MAX_ADDED_RTT_MS,
  MAX_CHUNK_PAUSE_MS,
  MAX_COMMANDS,
  MAX_JITTER_MS,
  MAX_REPEATS,
  MAX_SERVER_TRACED_COMMANDS,
  MAX_VALUE_BYTES,
  UNTIL_CERTAIN,
  commandTakesValue,
  memorySampled,
  type RunSpec,
} from '../../../../trace/format/run-request.ts';
import { UNTIL_CERTAIN_CHECKPOINTS } from '../../../../trace/derive/paired-verdict.ts';
import { RUN_MODES, type RunMode } from '../../../../trace/format/trace-format.ts';
import { chunkedChoiceLabel, chunkNote, modeBadge, modeWireLine } from '../../format/run-label.ts';
import { formatCount } from '../../format/number-format.ts';
import { MODES_OF, MODE_CHOICES, formModes, hasChunks, modeRefusal, validateRunForm, type FormErrors, type ModeChoice, type RunFormState } from '../../state/run-form-state.ts';
import { ClusterFieldsView } from './cluster-fields-view.tsx';
import { NeighborFieldsView } from './neighbor-fields-view.tsx';
import { PlantErrorView } from './plant-error-view.tsx';
import { RTT_STOPS_MS, rttAtStop, stopIndexFor } from '../../state/rtt-slider-stops.ts';
import { CommandField, EngineField, FieldError, NumberInput } from './form-fields-view.tsx';
import './run-form-view.css';

/** What the memory box does for this run: asked for, on anyway (a run that can move memory), or off. */
function memoryNote(form: RunFormState, spec: RunSpec | null): string {
  if (form.memory) return 'in one more run of each mode, not timed';
  return spec && memorySampled(spec) ? 'sampled anyway: this run can move memory' : 'off: the sampler would slow a small run';
}

interface Props {
  form: RunFormState;
  onChange: (form: RunFormState) => void;
  onRun: (spec: RunSpec) => void;
  onCancel: () => void;
  running: boolean;
  cancelling: boolean;
  /** Why Run is unavailable right now (no backend, Redis down), or null. */
  blockedReason: string | null;
  /** The rarer fields unfolded under "More options" (the link's options=1); absent: unfolded, no toggle. */
  moreOptions?: boolean;
  onMoreOptions?: (open: boolean) => void;
  /** More of the bar after the everyday fields (the preset picker), and of the line under it (the preset's lesson). */
  barExtra?: ReactNode;
  promptExtra?: ReactNode;
  /** Starts the guided tour, offered to a newcomer beside Run. */
  onTour?: () => void;
  /** The backend's Redis Cluster (masters, replicas), or null for a single Redis: the cluster's choices show then. */
  cluster?: { masters: number; replicas: number } | null;
  /** Runs go to Pipescope's private Redis Cluster: "Reshard during the run" is offered under More options. */
  privateCluster?: boolean;
}

/** What each choice runs, in words; C is the chunk size as typed (or "C" while it is not a number). */
function modeChoiceLabel(mode: ModeChoice, form: RunFormState): string {
  const typed = (text: string) => (/^\s*\d+\s*$/.test(text) && Number(text) > 0 ? Number(text) : null);
  const chunk = typed(form.chunk);
  const c = chunk === null ? 'C' : formatCount(chunk);
  const labels: Record<ModeChoice, string> = {
    sequential: 'Sequential',
    pipeline: 'One pipeline',
    chunked: chunkedChoiceLabel(typed(form.n), chunk),
    both: 'Sequential vs one pipeline',
    'pipeline-vs-chunked': `One pipeline vs chunks of ${c}`,
    all: `All three: sequential, one pipeline, chunks of ${c}`,
    multi: 'MULTI/EXEC transaction',
    eval: 'One EVAL script',
    evalsha: 'EVALSHA calls, pipelined',
    multikey: 'One multi-key command (MSET/MGET)',
    auto: 'Auto-pipelined by the client',
    custom: 'Pick the modes to compare…',
  };
  return labels[mode];
}

/** The choices of the mode menu, grouped: one mode, or a comparison. */
const MODE_GROUPS: { label: string; modes: readonly ModeChoice[] }[] = [
  { label: 'One mode', modes: MODE_CHOICES.filter((m) => MODES_OF[m].length === 1) },
  { label: 'Compare', modes: MODE_CHOICES.filter((m) => MODES_OF[m].length !== 1) },
];

/** Why a menu choice cannot run with this command and engine: the first of its modes the spec refuses. */
function choiceRefusal(mode: ModeChoice, form: RunFormState): string | null {
  for (const m of MODES_OF[mode]) {
    const why = modeRefusal(m, form.command, form.engine);
    if (why) return why;
  }
  return null;
}

/** The custom pick: every mode with what it puts on the wire, those refused here disabled with the reason. */
function ModePicker({ form, onChange }: { form: RunFormState; onChange: (modes: RunMode[]) => void }) {
  return (
    <fieldset className="field checks mode-picker" data-testid="mode-picker">
      <legend>Modes to compare (two to six fit side by side)</legend>
      {RUN_MODES.map((m) => {
        const why = modeRefusal(m, form.command, form.engine);
        const checked = form.modes.includes(m);
        return (
          <label key={m} className={why ? (checked ? 'check refused' : 'check disabled') : 'check'} title={why ?? undefined}>
            <input
              type="checkbox"
              data-testid={`mode-${m}`}
              // A refused mode already ticked (from a link) stays tickable off, its reason shown; the form's error says the same.
              checked={checked}
              disabled={why !== null && !checked}
              onChange={(e) => onChange(e.target.checked ? [...form.modes, m] : form.modes.filter((x) => x !== m))}
            />
            <span className="mode-name">{modeBadge(m)}</span>
            <span className="check-note">{why ? `— ${why}` : `— ${modeWireLine(m)}`}</span>
          </label>
        );
      })}
    </fieldset>
  );
}

/** The repeats offered: until certain, once, and the checkpoints' counts; a count from a link joins them. */
function repeatChoices(current: string): string[] {
  const choices = [UNTIL_CERTAIN, '1', '5', ...UNTIL_CERTAIN_CHECKPOINTS.map(String)];
  return choices.includes(current) ? choices : [...choices, current];
}

/** The fields under "More options" whose message shows beside them (the rest say theirs under the form). */
const FOLDED_FIELDS: readonly (keyof FormErrors)[] = ['chunkPauseMs', 'jitterMs', 'errorAt', 'errorKind', 'repeats', 'neighborRate', 'clusterSplit', 'clusterCompare', 'reshard'];

export function RunFormView({
  form, onChange, onRun, onCancel, running, cancelling, blockedReason, moreOptions, onMoreOptions, barExtra, promptExtra, onTour, cluster = null, privateCluster = false,
}: Props) {
  const id = useId();
  const result = validateRunForm(form);
  const errors = result.ok ? {} : result.errors;
  const takesValue = commandTakesValue(form.command);
  const set = (patch: Partial<RunFormState>) => onChange({ ...form, ...patch });
  // An error in a folded field shows anyway: the fold opens for it (and closes again with the toggle once fixed).
  const foldedError = FOLDED_FIELDS.some((k) => errors[k] !== undefined);
  const unfolded = moreOptions === undefined || moreOptions || foldedError;
  const chunks = hasChunks(form.mode, form.modes);
  return (
    <form
      className="run-form run-form-rows"
      aria-label="Run settings"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (result.ok && !running && !blockedReason) onRun(result.spec);
      }}
    >
      <div className="run-bar">
        <CommandField id={`${id}-command`} testId="command" value={form.command} onChange={(command) => set({ command })} />
        <div className="field">
          <label htmlFor={`${id}-n`}>Count N</label>
          <NumberInput id={`${id}-n`} testId="n" className="narrow" value={form.n} min={1} max={MAX_COMMANDS} whole error={errors.n} onChange={(n) => set({ n })} />
          <FieldError id={`${id}-n`} error={errors.n} />
        </div>
        {takesValue && (
          <div className="field">
            <label htmlFor={`${id}-value`}>Value size (bytes)</label>
            <NumberInput id={`${id}-value`} testId="value-bytes" className="narrow" value={form.valueBytes} min={0} max={MAX_VALUE_BYTES} whole error={errors.valueBytes} onChange={(valueBytes) => set({ valueBytes })} />
            <FieldError id={`${id}-value`} error={errors.valueBytes} />
          </div>
        )}
        <div className="field mode-field">
          <label htmlFor={`${id}-mode`}>Mode</label>
          <select id={`${id}-mode`} data-testid="mode" value={form.mode} onChange={(e) => set({ mode: e.target.value as ModeChoice })}>
            {MODE_GROUPS.map(({ label, modes }) => (
              <optgroup key={label} label={label}>
                {modes.map((m) => {
                  const why = choiceRefusal(m, form);
                  return (
                    <option key={m} value={m} disabled={why !== null && m !== form.mode} title={why ?? undefined}>
                      {modeChoiceLabel(m, form)}
                      {why ? ' (unavailable)' : ''}
                    </option>
                  );
                })}
              </optgroup>
            ))}
          </select>
        </div>
        {chunks && (
          <div className="field">
            <label htmlFor={`${id}-chunk`} title="Commands per pipeline: each pipeline's replies are awaited before the next is written">
              Pipelines of C
            </label>
            <NumberInput id={`${id}-chunk`} testId="chunk" className="narrow" value={form.chunk} min={1} max={MAX_COMMANDS} whole error={errors.chunk} onChange={(chunk) => set({ chunk })} />
            <FieldError id={`${id}-chunk`} error={errors.chunk} />
            {!errors.chunk && !errors.n && (
              <span className="chunk-note" data-testid="chunk-note">
                {chunkNote(Number(form.n), Number(form.chunk))}
              </span>
            )}
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-rtt`} title="Round-trip time added by the backend's TCP delay proxy; 0 connects directly">
            Added RTT (ms)
          </label>
          <div className="rtt-inputs">
            <NumberInput id={`${id}-rtt`} testId="rtt-ms" className="tiny" value={form.rttMs} min={0} max={MAX_ADDED_RTT_MS} error={errors.rttMs} onChange={(rttMs) => set({ rttMs })} />
            <input
              className="rtt-slider"
              data-testid="rtt-slider"
              type="range"
              min={0}
              max={RTT_STOPS_MS.length - 1}
              step={1}
              value={stopIndexFor(form.rttMs)}
              aria-label="Added RTT"
              aria-valuetext={`${rttAtStop(stopIndexFor(form.rttMs))} ms`}
              onChange={(e) => set({ rttMs: String(rttAtStop(Number(e.target.value))) })}
            />
          </div>
          <FieldError id={`${id}-rtt`} error={errors.rttMs} />
        </div>
        {barExtra}
        <div className="field actions">
          {running ? (
            <button type="button" className="button danger" data-testid="cancel" onClick={onCancel} disabled={cancelling}>
              {cancelling ? 'Cancelling…' : 'Cancel'}
            </button>
          ) : (
            <button
              type="submit"
              className="button primary"
              data-testid="run"
              disabled={!result.ok || blockedReason !== null}
              title={blockedReason ?? (result.ok ? 'Run against Redis now' : 'Fix the highlighted field first')}
            >
              Run
            </button>
          )}
        </div>
        {onMoreOptions && (
          <div className="field actions more-field">
            <button
              type="button"
              className="button more-toggle"
              data-testid="more-options"
              aria-expanded={unfolded}
              aria-controls={`${id}-more`}
              disabled={foldedError}
              title={foldedError ? 'A field below needs fixing first' : 'Jitter, client, repeats, the connection, memory, the Redis-side probes, other clients'}
              onClick={() => onMoreOptions(!moreOptions)}
            >
              More options {unfolded ? '▴' : '▾'}
            </button>
          </div>
        )}
      </div>
      <div className="run-prompt" data-testid="run-prompt">
        {form.mode !== 'custom' && (
          <ul className="mode-lines" data-testid="mode-lines">
            {formModes(form).map((m) => {
              const why = modeRefusal(m, form.command, form.engine);
              return (
                <li key={m} className={why ? 'refused' : undefined}>
                  <b>{modeBadge(m)}</b>: {why ? `unavailable — ${why}` : modeWireLine(m)}
                </li>
              );
            })}
          </ul>
        )}
        {promptExtra}
        {onTour && (
          <span className="first-step">
            New here?{' '}
            <button type="button" className="link-button" data-testid="start-tour" onClick={onTour}>
              Take the tour
            </button>
          </span>
        )}
      </div>
      {form.mode === 'custom' && <ModePicker form={form} onChange={(modes) => set({ modes })} />}
      <div className="more-options" id={`${id}-more`} data-testid="more-options-panel" hidden={!unfolded}>
        {chunks && (
          <div className="field">
            <label htmlFor={`${id}-pause`} title="The client sleeps this long between one pipeline's last reply and the next pipeline (the Tencent article's small batches with a short sleep)">
              Pause between chunks (ms)
            </label>
            <NumberInput id={`${id}-pause`} testId="chunk-pause" className="narrow" value={form.chunkPauseMs} min={0} max={MAX_CHUNK_PAUSE_MS} error={errors.chunkPauseMs} onChange={(chunkPauseMs) => set({ chunkPauseMs })} />
            <FieldError id={`${id}-pause`} error={errors.chunkPauseMs} />
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-jitter`} title="± variation of each chunk's one-way delay in the proxy">
            ± jitter (ms)
          </label>
          <NumberInput id={`${id}-jitter`} testId="jitter-ms" className="narrow" value={form.jitterMs} min={0} max={MAX_JITTER_MS} error={errors.jitterMs} onChange={(jitterMs) => set({ jitterMs })} />
          <FieldError id={`${id}-jitter`} error={errors.jitterMs} />
        </div>
        <EngineField id={`${id}-engine`} testId="engine" value={form.engine} onChange={(engine) => set({ engine })} />
        {form.command === 'INCR' && <PlantErrorView form={form} errors={errors} onChange={set} />}
        <div className="field">
          <label
            htmlFor={`${id}-repeats`}
            title="Each mode runs once per round, the order alternating; until certain stops at the first check (10, 15, 20, 30 pairs) where the 95 % interval of each ratio excludes 1"
          >
            Repeats
          </label>
          <select id={`${id}-repeats`} data-testid="repeats" value={form.repeats} aria-invalid={errors.repeats ? true : undefined} onChange={(e) => set({ repeats: e.target.value })}>
            {repeatChoices(form.repeats).map((choice) => (
              <option key={choice} value={choice}>
                {choice === UNTIL_CERTAIN ? `until certain (≤ ${MAX_REPEATS} pairs)` : choice === '1' ? '1 (once)' : choice}
              </option>
            ))}
          </select>
          <FieldError id={`${id}-repeats`} error={errors.repeats} />
          {!errors.repeats && <span className="field-note below">runs of a second or more run once</span>}
        </div>
        <fieldset className="field checks">
          <legend>Connection</legend>
          <label className="check" title="Without the warm-up before t0, the run's first command pays the connection's first-call costs">
            <input type="checkbox" data-testid="cold" checked={form.cold} onChange={(e) => set({ cold: e.target.checked })} />
            Cold connection (no warm-up)
          </label>
        </fieldset>
        <fieldset className="field checks">
          <legend>Memory</legend>
          <label className="check" title="Redis's buffers for the run's connection and this backend's heap, every 10 ms, in one more run of each mode after the timed ones: the sampler slows a small run 1.5–2×, so no timed run samples">
            <input type="checkbox" data-testid="memory" checked={form.memory} onChange={(e) => set({ memory: e.target.checked })} />
            Sample memory <span className="check-note" data-testid="memory-note">({memoryNote(form, result.ok ? result.spec : null)})</span>
          </label>
        </fieldset>
        <fieldset className="field checks">
          <legend title={`At most ${MAX_SERVER_TRACED_COMMANDS.toLocaleString('en-US')} commands with either on`}>Redis side</legend>
          <label className="check">
            <input type="checkbox" data-testid="monitor" checked={form.monitor} onChange={(e) => set({ monitor: e.target.checked })} />
            MONITOR <span className="check-note">(execution order and times; cheap)</span>
          </label>
          <label className="check">
            <input type="checkbox" data-testid="strace" checked={form.strace} onChange={(e) => set({ strace: e.target.checked })} />
            strace <span className="check-note">(read()/write() calls; slows Redis several-fold)</span>
          </label>
        </fieldset>
        <NeighborFieldsView form={form} errors={errors} onChange={set} />
        <ClusterFieldsView id={`${id}-cluster`} form={form} errors={errors} cluster={cluster} onChange={set} />
        {(privateCluster || form.reshard) && (
          <fieldset className="field checks">
            <legend>Redis Cluster</legend>
            <label className="check" title="Pipescope's private cluster only: a slot of the run's keys moves to another master, key by key, while the run runs (ASK, then MOVED); every reply is checked against the value stored before it">
              <input type="checkbox" data-testid="reshard" checked={form.reshard ?? false} onChange={(e) => set({ reshard: e.target.checked })} />
              Reshard during the run <span className="check-note">(GET or SET; answers checked against the value stored)</span>
            </label>
            {errors.reshard && <p className="field-error" data-testid="reshard-error">{errors.reshard}</p>}
          </fieldset>
        )}
      </div>
      {(errors.form || errors.modes || errors.command || errors.engine || errors.monitor || errors.strace || errors.cold) && (
        <p className="field-error form-error" data-testid="form-error">
          {errors.form ?? errors.modes ?? errors.command ?? errors.engine ?? errors.monitor ?? errors.strace ?? errors.cold}
        </p>
      )}
    </form>
  );
}
