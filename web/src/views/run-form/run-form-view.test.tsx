// The run form's batching choices as a user meets them: each mode with what it puts on the wire, the
// ones the spec refuses for this command or engine disabled with the reason, a planted error's fields.
import { describe, expect, it } from 'vitest';
import type { RunFormState } from '../../state/run-form-state.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { RunFormView } from './run-form-view.tsx';

const base: RunFormState = {
  command: 'INCR', n: '10', valueBytes: '16', mode: 'custom', chunk: '5', rttMs: '0', jitterMs: '0', monitor: false, strace: false, cold: false, repeats: '1',
  engine: 'ioredis', modes: ['pipeline', 'multi'], chunkPauseMs: '0', plantError: false, errorAt: '4', errorKind: 'runtime', neighborRate: '0',
  neighborCommand: 'INCR', heldConnection: false, memory: false, clusterKeys: 'spread', clusterSplit: 'parallel',
};

describe('RunFormView', () => {
  const view = useReactHost();
  const render = (patch: Partial<RunFormState>) =>
    view.render(<RunFormView form={{ ...base, ...patch }} onChange={() => {}} onRun={() => {}} onCancel={() => {}} running={false} cancelling={false} blockedReason={null} />);
  const box = (mode: string) => view.host.querySelector<HTMLInputElement>(`[data-testid=mode-${mode}]`)!;

  it('offers "Reshard during the run" only when runs go to Pipescope\'s private cluster', () => {
    render({});
    expect(view.host.querySelector('[data-testid=reshard]')).toBeNull();
    view.render(<RunFormView form={{ ...base, command: 'GET' }} onChange={() => {}} onRun={() => {}} onCancel={() => {}} running={false} cancelling={false} blockedReason={null} privateCluster />);
    const box = view.host.querySelector<HTMLInputElement>('[data-testid=reshard]')!;
    expect(box.checked).toBe(false);
    expect(box.closest('label')!.textContent).toMatch(/Reshard during the run/);
  });

  it('lists all eight modes with what each puts on the wire', () => {
    render({});
    const lines = [...view.host.querySelectorAll('[data-testid=mode-picker] label')].map((l) => l.textContent);
    expect(lines).toHaveLength(8);
    expect(lines).toContain('MULTI/EXEC— MULTI, your commands, EXEC — a transaction');
    expect(lines).toContain('EVAL— one EVAL: a Lua script does the work on Redis');
    expect(box('multikey').disabled).toBe(true);
    expect(box('multikey').closest('label')!.textContent).toMatch(/only for SET \(one MSET\) or GET \(one MGET\)/);
  });

  it('GET-COMPUTE-SET leaves sequential and eval; the raw socket rules out auto', () => {
    render({ command: 'GET-COMPUTE-SET', modes: ['sequential', 'eval'], engine: 'raw' });
    expect(['sequential', 'eval'].map((m) => box(m).disabled)).toEqual([false, false]);
    expect(['pipeline', 'chunked', 'multi', 'evalsha', 'multikey', 'auto'].every((m) => box(m).disabled)).toBe(true);
    expect(view.host.querySelector('[data-testid=command-note]')?.textContent).toBe('read, compute, write back');
  });

  it('a refused mode already ticked can be unticked, and the form says why it cannot run', () => {
    render({ command: 'GET-COMPUTE-SET', modes: ['sequential', 'pipeline'] });
    expect(box('pipeline').checked).toBe(true);
    expect(box('pipeline').disabled).toBe(false);
    expect(view.host.querySelector('[data-testid=form-error]')?.textContent).toMatch(/^GET-COMPUTE-SET needs each GET's reply/);
    expect(view.host.querySelector<HTMLButtonElement>('[data-testid=run]')!.disabled).toBe(true);
  });

  it('offers a planted error for INCR only, with both kinds explained, and the node-redis hint', () => {
    render({ plantError: true, engine: 'node-redis' });
    // The form holds errorAt from 0, as the spec does; the field shows it from 1, as the verdict says "operation 5 failed".
    expect(view.host.querySelector<HTMLInputElement>('[data-testid=error-at]')!.value).toBe('5');
    expect(view.host.querySelector('[data-testid=plant-error]')!.textContent).toMatch(/EXEC then aborts them all/);
    expect(view.host.querySelector('[data-testid=engine-hint]')?.textContent).toBe('pipelines same-tick commands by itself');
    render({ command: 'PING' });
    expect(view.host.querySelector('[data-testid=plant-error]')).toBeNull();
  });

  it('a visible memory switch that says what it does for this run', () => {
    const note = () => view.host.querySelector('[data-testid=memory-note]')?.textContent;
    render({ mode: 'both', n: '10' });
    expect(view.host.querySelector<HTMLInputElement>('[data-testid=memory]')!.checked).toBe(false);
    expect(note()).toBe('(off: the sampler would slow a small run)');
    render({ mode: 'both', n: '100000' });
    expect(note()).toBe('(sampled anyway: this run can move memory)');
    render({ mode: 'both', n: '10', memory: true });
    expect(note()).toBe('(in one more run of each mode, not timed)');
  });

  it('titles the chunked choice "one pipeline of 10" when the chunk is not smaller than N', () => {
    render({ mode: 'chunked', n: '10', chunk: '10000' });
    const options = [...view.host.querySelectorAll('option')].map((o) => o.textContent);
    expect(options).toContain('Chunks of 10,000: here one pipeline of 10');
    render({ mode: 'chunked', n: '100000', chunk: '10000' });
    expect([...view.host.querySelectorAll('option')].map((o) => o.textContent)).toContain('N commands in pipelines of 10,000');
  });

  it('offers the cluster\'s choices only on a cluster; a single Redis sees them only when a link set them, with why', () => {
    const renderOn = (cluster: { masters: number; replicas: number } | null, patch: Partial<RunFormState>) =>
      view.render(<RunFormView form={{ ...base, ...patch }} onChange={() => {}} onRun={() => {}} onCancel={() => {}} running={false} cancelling={false} blockedReason={null} cluster={cluster} />);
    renderOn(null, {});
    expect(view.host.querySelector('[data-testid=cluster-fields]')).toBeNull();
    renderOn({ masters: 3, replicas: 0 }, {});
    const fields = view.host.querySelector('[data-testid=cluster-fields]')!;
    expect(fields.querySelector('legend')!.textContent).toBe('Redis Cluster (3 masters)');
    expect(view.host.querySelector<HTMLSelectElement>('[data-testid=cluster-keys]')!.value).toBe('spread');
    expect([...view.host.querySelectorAll('[data-testid=cluster-keys] option')].map((o) => o.textContent)).toEqual(['spread over slots (every master)', 'under one {hash tag} (one slot, one node)', 'both, side by side']);
    expect(view.host.querySelector('[data-testid=cluster-fields-note]')).toBeNull();
    renderOn(null, { clusterKeys: 'hashtag' });
    expect(view.host.querySelector('[data-testid=cluster-fields-note]')!.textContent).toBe('only for a Redis Cluster: this Redis is a single one, which refuses them');
    // serial needs the raw engine's pipeline: the schema's words beside the field
    renderOn({ masters: 3, replicas: 3 }, { clusterSplit: 'serial', engine: 'ioredis' });
    expect(view.host.querySelector('[data-testid=cluster-fields]')!.textContent).toMatch(/clusterSplit serial is how the raw engine writes a pipeline/);
    // a comparison shows as "both" in its select; a split comparison needs the raw engine's pipeline, said beside the field
    renderOn({ masters: 3, replicas: 0 }, { clusterCompare: 'keys' });
    expect(view.host.querySelector<HTMLSelectElement>('[data-testid=cluster-keys]')!.value).toBe('both');
    expect(view.host.querySelector<HTMLSelectElement>('[data-testid=cluster-split]')!.value).toBe('parallel');
    renderOn({ masters: 3, replicas: 0 }, { clusterCompare: 'split', engine: 'ioredis' });
    expect(view.host.querySelector<HTMLSelectElement>('[data-testid=cluster-split]')!.value).toBe('both');
    expect(view.host.querySelector('[data-testid=cluster-fields]')!.textContent).toMatch(/clusterCompare split compares how the raw engine writes a pipeline/);
  });
});
