import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parseStraceFile } from './strace-probe.ts';

// Lines as strace 6.1 printed them for a redis-server here (-f -ttt -yy -s 64), two clients.
const SAMPLE = String.raw`21104 1795335627.079347 epoll_wait(5<anon_inode:[eventpoll]>, [{events=EPOLLIN, data={u32=8, u64=8}}], 10128, 100) = 1
21104 1795335627.079398 read(8<TCP:[127.0.0.1:6399->127.0.0.1:45478]>, "*1\r\n$4\r\nping\r\n", 16384) = 14
21104 1795335627.079420 read(9<TCP:[127.0.0.1:6399->127.0.0.1:50000]>, "*1\r\n$4\r\nping\r\n", 16384) = 14
21104 1795335627.079500 read(10</proc/21104/stat>, "21104 (redis-server) R", 4095) = 320
21104 1795335627.088555 write(8<TCP:[127.0.0.1:6399->127.0.0.1:45478]>, "+PONG\r\n", 7) = 7
21104 1795335627.089000 writev(8<TCP:[127.0.0.1:6399->127.0.0.1:45478]>, [{iov_base="+PONG\r\n", iov_len=7}, {iov_base="+PO"..., iov_len=300}], 2) = 307
21104 1795335627.089473 epoll_wait(5<anon_inode:[eventpoll]>, [{events=EPOLLIN, data={u32=9, u64=9}}], 10128, 91) = 1
21104 1795335627.089539 read(8<TCP:[127.0.0.1:6399->127.0.0.1:45478]>, "", 20474) = 0
21104 1795335627.089600 read(8<TCP:[127.0.0.1:6399->127.0.0.1:45478]>, 0x7f00, 16384) = -1 EAGAIN (Resource temporarily unavailable)
strace: Process 21104 detached
`;

it('keeps the run socket\'s calls and the epoll_wait calls that woke for it', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'strace-test-')), 'trace');
  writeFileSync(file, SAMPLE);
  const calls = await parseStraceFile(file, 45478);
  expect(calls).toEqual([
    { atEpochUs: 1795335627079347, call: 'epoll_wait', result: 1, head: '' },
    { atEpochUs: 1795335627079398, call: 'read', result: 14, head: String.raw`*1\r\n$4\r\nping\r\n` },
    { atEpochUs: 1795335627088555, call: 'write', result: 7, head: String.raw`+PONG\r\n` },
    { atEpochUs: 1795335627089000, call: 'writev', result: 307, head: String.raw`+PONG\r\n+PO…` },
    { atEpochUs: 1795335627089539, call: 'read', result: 0, head: '' },
    { atEpochUs: 1795335627089600, call: 'read', result: -1, head: '' },
  ]);
});
