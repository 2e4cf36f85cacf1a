// A cluster command's tooltip rows: its node and socket, its slot with the {hash tag} that chose it,
// the redirect it met and the command sent in its place; none on a single Redis.
import { describe, expect, it } from 'vitest';
import { pipelineTrace } from '../test-support/trace-fixtures.ts';
import { keySlot, redirectedCounter, spreadPipeline } from '../test-support/cluster-fixtures.ts';
import { clusterCommandRows } from './cluster-command-details.ts';

describe('clusterCommandRows', () => {
  it('none for a run against a single Redis', () => {
    expect(clusterCommandRows(pipelineTrace(3), 0)).toEqual([]);
  });

  it('the node, the socket, and the slot with its hash tag emphasised', () => {
    const doc = spreadPipeline(4, 'user42');
    const node = doc.cluster!.topology.nodes.find((n) => n.id === doc.commands[2]!.node)!;
    expect(clusterCommandRows(doc, 2)).toEqual([
      { label: 'node', value: `${node.address} (master) · socket 1 of 1` },
      { label: 'slot', value: `${keySlot('{user42}')}: hash tag {user42}, only it is hashed`, emphasis: '{user42}' },
    ]);
  });

  it('a key without a tag: the whole key is hashed', () => {
    const rows = clusterCommandRows(spreadPipeline(4), 0);
    expect(rows[1]).toEqual({ label: 'slot', value: `${keySlot('pipescope:cl-spread-4:key:0')}: the whole key is hashed (no {hash tag})` });
  });

  it('the redirect a command met, and the command sent in its place', () => {
    const doc = redirectedCounter();
    const [moved, ask] = doc.cluster!.redirects as [NonNullable<typeof doc.cluster>['redirects'][number], NonNullable<typeof doc.cluster>['redirects'][number]];
    expect(clusterCommandRows(doc, moved.command).find((r) => r.label === 'redirected')!.value).toBe(`${moved.error} — sent again as command ${moved.followedBy! + 1}`);
    expect(clusterCommandRows(doc, ask.command).find((r) => r.label === 'redirected')!.value).toBe(`${ask.error} — sent again as command ${ask.followedBy! + 1}, after ASKING`);
    expect(clusterCommandRows(doc, moved.followedBy!).find((r) => r.label === 'after')!.value).toMatch(new RegExp(`^${moved.error} to command ${moved.command + 1}, `));
  });
});
