# The Redis documentation's own Ruby benchmark of pipelining (10,000 PINGs, without and with
# `pipelined`), made to take its Redis from the command line so that Pipescope can observe it through
# its observing port. Prints each part's time as a JSON line. The URL comes in the environment (it may
# hold a password, which must not show in `ps`).
#   PIPESCOPE_REDIS_URL=redis://… ruby redis-rb-ping.rb without|with|both [N]
require 'json'
begin
  require 'redis'
rescue LoadError
  warn 'redis-rb is not installed: on Debian, apt-get install ruby-redis'
  exit 3
end

url = ENV.fetch('PIPESCOPE_REDIS_URL')
which = ARGV[0] || 'both'
n = Integer(ARGV[1] || 10_000)

def bench(descr)
  start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  yield
  puts JSON.generate({ library: 'redis-rb', version: Redis::VERSION, part: descr, n: n_of(descr), seconds: Process.clock_gettime(Process::CLOCK_MONOTONIC) - start })
end

$n = n
def n_of(_descr) = $n

def without_pipelining(url, n)
  r = Redis.new(url: url)
  n.times { r.ping }
  r.close
end

def with_pipelining(url, n)
  r = Redis.new(url: url)
  r.pipelined do |rp|
    n.times { rp.ping }
  end
  r.close
end

bench('without pipelining') { without_pipelining(url, n) } if %w[without both].include?(which)
bench('with pipelining') { with_pipelining(url, n) } if %w[with both].include?(which)
