// The single-run view's controls (#run-settings): the run form (its bar holding the preset menu, its
// "More options" fold), the long-run question, the progress of a request and Open trace… (and, on the
// static site, the way back to the recorded runs). Presenter mode keeps the form's bar and folds the rest
// away behind Settings; a follower's page hides it all.
import type { RunSnapshot, RunStore } from '../../live/run-store.ts';
import { applyPreset, type NetworkPreset } from '../../state/network-presets.ts';
import type { RunFormState } from '../../state/run-form-state.ts';
import { LongRunConfirmView } from './long-run-confirm-view.tsx';
import { NetworkPresetsView, PresetLessonView } from './network-presets-view.tsx';
import { RunFormView } from './run-form-view.tsx';
import { RunProgressView } from './run-progress-view.tsx';
import { useLongRunConfirm } from './use-long-run-confirm.ts';
import { useRevealResults } from './use-reveal-results.ts';

interface Props {
  form: RunFormState;
  onFormChange: (form: RunFormState) => void;
  store: RunStore;
  runs: RunSnapshot;
  /** Why Run is unavailable right now (no backend, Redis down, a sweep running), or null. */
  blockedReason: string | null;
  /** Opens trace files; resolves once they are shown. */
  onOpenFiles: (files: FileList | null) => Promise<void>;
  hidden: boolean;
  /** Presenter mode with Settings closed: the form's bar alone (no line under it, no fold, no file controls). */
  barOnly?: boolean;
  /** The static site: no form, progress or presets, and a link back to the recorded runs. */
  offline: boolean;
  /** A preset of real clients (`preset.observe`): the page runs them through the observing port instead. */
  onObservePreset?: (preset: NetworkPreset) => void;
  /** The form's rarer fields unfolded (the link's options=1). */
  moreOptions: boolean;
  onMoreOptions: (open: boolean) => void;
  /** Starts the guided tour (offered beside Run); absent while it is open. */
  onTour?: () => void;
  /** The backend's Redis Cluster (RedisStatus.cluster), or null for a single Redis. */
  cluster?: { masters: number; replicas: number } | null;
  /** Runs go to Pipescope's private Redis Cluster: the form offers to reshard during a run. */
  privateCluster?: boolean;
}

export function RunControlsView({ form, onFormChange, store, runs, blockedReason, onOpenFiles, hidden, offline, onObservePreset, moreOptions, onMoreOptions, onTour, barOnly = false, cluster = null, privateCluster = false }: Props) {
  const { active, traces } = runs;
  const longRun = useLongRunConfirm(store, traces.at(-1));
  const revealResults = useRevealResults(traces);
  return (
    <section className={`controls run-controls${barOnly ? ' bar-only' : ''}`} id="run-settings" hidden={hidden}>
      {!offline && <RunFormView
        form={form}
        onChange={onFormChange}
        onRun={(spec) => {
          revealResults();
          longRun.onRun(spec);
        }}
        onCancel={() => store.cancel()}
        running={active !== null}
        cancelling={active?.cancelling ?? false}
        blockedReason={blockedReason}
        moreOptions={moreOptions}
        onMoreOptions={onMoreOptions}
        onTour={onTour}
        cluster={cluster}
        privateCluster={privateCluster}
        barExtra={
          <NetworkPresetsView
            form={form}
            cluster={cluster !== null}
            onApply={(p) => (p.observe && onObservePreset ? onObservePreset(p) : onFormChange(applyPreset(form, p)))}
          />
        }
        promptExtra={<PresetLessonView form={form} />}
      />}
      {longRun.pending && (
        <LongRunConfirmView
          n={longRun.pending.spec.n}
          rttMs={longRun.pending.spec.rttMs}
          longRun={longRun.pending.longRun}
          onRunAnyway={longRun.runAnyway}
          onReduce={(n) => {
            onFormChange({ ...form, n: String(n) });
            longRun.runWith(n);
          }}
          onDismiss={longRun.dismiss}
        />
      )}
      {!offline && <RunProgressView active={active} />}
      <div className="file-controls">
        {offline && traces.length > 0 && (
          <a className="button" href="./" data-testid="recorded-runs-link">
            All recorded runs
          </a>
        )}
        <label className="button">
          Open trace…
          <input
            className="visually-hidden"
            type="file"
            accept=".json,.gz,application/json,application/gzip"
            multiple
            data-testid="import"
            onChange={(e) => {
              const input = e.currentTarget;
              void onOpenFiles(input.files).then(() => {
                input.value = '';
              });
            }}
          />
        </label>
      </div>
    </section>
  );
}
