// The run form's Redis Cluster choices, under "More options", shown when the backend's Redis is a node of
// a cluster (RedisStatus.cluster): where the run's keys go (spread over slots, so over every master, or
// under one {hash tag}, so one slot on one node; link keys=) and how the raw engine writes a pipeline's
// shares (every node at once, or one node after another; link split=); either one's "both, side by side"
// compares its two variants in one request (clusterCompare, link compare=). A form that holds them against a
// single Redis (a link made for a cluster) shows them with that said, so they can be put back.
import type { ClusterCompare, ClusterKeys, ClusterSplit } from '../../../../trace/format/run-request.ts';
import type { FormErrors, RunFormState } from '../../state/run-form-state.ts';
import { FieldError } from './form-fields-view.tsx';

interface Props {
  id: string;
  form: RunFormState;
  errors: FormErrors;
  /** The backend's cluster (masters, replicas), or null for a single Redis. */
  cluster: { masters: number; replicas: number } | null;
  onChange: (patch: Partial<RunFormState>) => void;
}

/** The select's value meaning "both variants side by side". */
const BOTH = 'both';

/** A select's patch: one variant (ending this select's compare), or both (the compare, its single value back to the default). */
function choose(form: RunFormState, compare: ClusterCompare, value: string, single: Partial<RunFormState>): Partial<RunFormState> {
  if (value === BOTH) return { ...single, clusterCompare: compare };
  return { ...single, clusterCompare: form.clusterCompare === compare ? undefined : form.clusterCompare };
}

export function ClusterFieldsView({ id, form, errors, cluster, onChange }: Props) {
  const asked = form.clusterKeys !== 'spread' || form.clusterSplit !== 'parallel' || form.clusterCompare !== undefined;
  if (!cluster && !asked) return null;
  return (
    <fieldset className="field checks" data-testid="cluster-fields">
      <legend title="In a cluster a pipeline's keys must share a node, or the client must split it by node">
        Redis Cluster{cluster ? ` (${cluster.masters} masters${cluster.replicas ? `, ${cluster.replicas} replicas` : ''})` : ''}
      </legend>
      <label className="check" htmlFor={`${id}-keys`}>
        Keys{' '}
        <select id={`${id}-keys`} data-testid="cluster-keys" value={form.clusterCompare === 'keys' ? BOTH : form.clusterKeys}
          onChange={(e) => onChange(choose(form, 'keys', e.target.value, { clusterKeys: e.target.value === BOTH ? 'spread' : e.target.value as ClusterKeys }))}>
          <option value="spread">spread over slots (every master)</option>
          <option value="hashtag">under one {'{hash tag}'} (one slot, one node)</option>
          <option value={BOTH}>both, side by side</option>
        </select>
      </label>
      <label className="check" htmlFor={`${id}-split`}>
        Raw pipeline{' '}
        <select id={`${id}-split`} data-testid="cluster-split" value={form.clusterCompare === 'split' ? BOTH : form.clusterSplit}
          aria-invalid={errors.clusterSplit || errors.clusterCompare ? true : undefined}
          onChange={(e) => onChange(choose(form, 'split', e.target.value, { clusterSplit: e.target.value === BOTH ? 'parallel' : e.target.value as ClusterSplit }))}>
          <option value="parallel">every node at once</option>
          <option value="serial">one node after another</option>
          <option value={BOTH}>both, side by side</option>
        </select>
      </label>
      <FieldError id={`${id}-split`} error={errors.clusterSplit ?? errors.clusterCompare} />
      {!cluster && (
        <span className="field-note below" data-testid="cluster-fields-note">
          only for a Redis Cluster: this Redis is a single one, which refuses them
        </span>
      )}
    </fieldset>
  );
}
