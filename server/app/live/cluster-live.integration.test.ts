// A cluster run over the live WebSocket, as the page gets it: run-end carries the trace's cluster record
// (topology, sockets, redirects, each node's counters and RTT) and each command's slot and socket, so the
// copy the page builds from the wire is the trace the backend keeps, byte for byte, on a real Redis
// Cluster (3 masters, started by the test), with no pipescope:* key left on any node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSpec } from '../../../trace/format/run-request.ts';
import { parseDocument, tracesOf } from '../../../trace/format/sweep-io.ts';
import { serializeTrace } from '../../../trace/format/trace-io.ts';
import { LiveTestClient } from '../../test-support/live-test-client.ts';
import { pipescopeKeysOnEveryNode, usePrivateCluster } from '../../test-support/private-cluster.ts';
import { startApp, type RunningApp } from '../http/http-app.ts';

const context = usePrivateCluster();

describe('the live page\'s copy', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ port: 0, host: '127.0.0.1', redisUrl: context.url(1) });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('run-end carries the cluster record and each command\'s place: the copy built from the wire equals the stored trace', async () => {
    const client = await new LiveTestClient(app.url).open();
    const spec: Partial<RunSpec> = { command: 'SET', n: 20, modes: ['pipeline', 'multikey'], repeats: 1, engine: 'raw', memory: false, kernelTcp: false };
    client.send({ type: 'run', requestId: 'cl', spec });
    await client.next((m) => m.type === 'request-done');
    const copies = client.tracesFor('cl');
    expect(copies).toHaveLength(2);
    for (const copy of copies) {
      // Named once the request is done (after request-done).
      const id = await client.next((m) => m.type === 'run-stored' && m.runId === copy.run.id);
      const response = await fetch(new URL(`stored-runs/${(id as { storedId: string }).storedId}`, app.url));
      const kept = tracesOf(parseDocument(await response.text()))[0]!;
      expect(serializeTrace(copy)).toBe(serializeTrace(kept));
      expect(copy.cluster!.nodeCounters).toHaveLength(3);
    }
    expect(copies[1]!.cluster!.redirects.map((r) => r.kind)).toEqual(['CROSSSLOT']);
    client.close();
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  }, 60_000);
});
