import { expect, it } from 'vitest';
import { parseClientLine } from './memory-sampler.ts';

it('reads qbuf, omem and tot-mem from a CLIENT LIST line (Redis 7)', () => {
  const line = 'id=7 addr=127.0.0.1:52330 laddr=127.0.0.1:6379 fd=9 name=pipescope-run-x age=0 idle=0 flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 qbuf=26 qbuf-free=20448 argv-mem=10 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=2 omem=40960 tot-mem=63370 events=r cmd=set user=default redir=-1 resp=2\n';
  expect(parseClientLine(line)).toEqual({ qbuf: 26, omem: 40960, totMem: 63370 });
});

it('is undefined when the client has gone (empty reply) or the fields are missing', () => {
  expect(parseClientLine('')).toBeUndefined();
  expect(parseClientLine('id=7 addr=127.0.0.1:1 qbuf=0 omem=0')).toBeUndefined();
});
