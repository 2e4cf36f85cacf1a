#!/usr/bin/env python3
# A small program that uses redis-py the way applications do, for Pipescope to observe through its
# observing port: N INCRs of one key, in a pipeline() (MULTI/EXEC: redis-py's default), a
# pipeline(transaction=False), or one by one. Prints what it did as one JSON line. The URL comes in the
# environment (it may hold a password, which must not show in `ps`).
#   PIPESCOPE_REDIS_URL=redis://… python3 redis-py-pipeline.py transaction|plain|sequential N KEY
import json
import os
import sys
import time

try:
    import redis
except ImportError:
    sys.stderr.write("redis-py is not installed: on Debian, apt-get install python3-redis\n")
    sys.exit(3)

url = os.environ["PIPESCOPE_REDIS_URL"]
mode, n, key = sys.argv[1], int(sys.argv[2]), sys.argv[3]
client = redis.Redis.from_url(url)
start = time.perf_counter()
if mode == "sequential":
    for _ in range(n):
        client.incr(key)
else:
    pipe = client.pipeline(transaction=(mode == "transaction"))
    for _ in range(n):
        pipe.incr(key)
    pipe.execute()
elapsed = time.perf_counter() - start
client.close()
print(json.dumps({"library": "redis-py", "version": redis.__version__, "mode": mode, "n": n, "seconds": elapsed}))
