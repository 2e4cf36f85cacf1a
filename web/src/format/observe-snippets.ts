// What to paste to point a client at the observing port: one line (or a few) for redis-cli, redis-py,
// redis-rb and Node (ioredis), each using the port's URL as the page shows it. A Redis with a password
// needs the client's own AUTH: the snippets leave the password for the user to add, never print one.
export interface ObserveSnippet {
  client: string;
  code: string;
}

export function observeSnippets(url: string): ObserveSnippet[] {
  const { hostname, port } = new URL(url);
  return [
    { client: 'redis-cli', code: `redis-cli -h ${hostname} -p ${port} PING   # or: … --pipe < commands.txt` },
    { client: 'redis-py', code: `r = redis.Redis.from_url("${url}")\npipe = r.pipeline()   # transaction=False for a plain pipeline\npipe.incr("k"); pipe.incr("k"); pipe.execute()` },
    { client: 'redis-rb', code: `r = Redis.new(url: "${url}")\nr.pipelined { |p| 3.times { p.incr("k") } }` },
    { client: 'Node (ioredis)', code: `const r = new Redis("${url}");\nawait r.pipeline().incr("k").incr("k").exec();` },
  ];
}
