// A helper process that cannot outlive Pipescope, and whose temporary folder goes with it. It runs
// under a tiny sh watchdog that holds the read end of a pipe from this process: when the pipe closes
// (Pipescope stops it, or dies however it dies, even by SIGKILL) the watchdog stops the process; when
// the process ends (stopped, or killed by someone else) the watchdog says so on its stdout, removes
// the folder and exits with the process's status. Used for the private redis-server and for strace.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * $1 = the folder, $2 = 1 to keep it until the pipe closes (the caller still has files to read),
 * then the command and its arguments. The command's stdout goes to stderr, so this script's stdout
 * carries only "exited <status>". SIGPIPE is ignored: once Pipescope is gone, writing to its pipes
 * must not kill the watchdog before it has cleaned up.
 */
const WATCHDOG = `dir=$1; keep=$2; shift 2
trap '' PIPE
exec 3<&0 0</dev/null
"$@" 3<&- >&2 &
child=$!
trap 'kill $child 2>/dev/null' TERM INT HUP
{ read -r _ <&3; kill $child 2>/dev/null; } &
reader=$!
while :; do
  wait $child; status=$?
  kill -0 $child 2>/dev/null || break
done
kill $reader 2>/dev/null
echo "exited $status" 2>/dev/null
if [ "$keep" = 1 ]; then while read -r _ <&3; do :; done; fi
rm -rf "$dir"
exit $status`;

export interface ProcessEnd {
  /** The process's exit status as sh reports it: 128 + N when signal N ended it. */
  status: number;
  /** "exited with status 1", "killed by SIGKILL". */
  description: string;
}

export interface WatchedProcess {
  /** The watchdog (sh); its stderr carries the process's stdout and stderr. */
  readonly watchdog: ChildProcess;
  /** Resolves once the process itself has ended (for whatever reason). */
  readonly ended: Promise<ProcessEnd>;
  /** Resolves once the watchdog has exited and the folder is gone. */
  readonly gone: Promise<void>;
  /** Asks the watchdog to stop the process (SIGTERM); resolves when it has ended. */
  stop(): Promise<ProcessEnd>;
  /** Closes the pipe: the process is stopped if it still runs, the folder removed; resolves when gone. */
  release(): Promise<void>;
}

/**
 * Starts `command args…` under the watchdog. `keepDir`: the folder survives the process until
 * release() (strace's output is read after strace has stopped); otherwise it goes with the process.
 */
export function spawnWatched(command: string, args: string[], dir: string, { keepDir = false }: { keepDir?: boolean } = {}): WatchedProcess {
  const watchdog = spawn('sh', ['-c', WATCHDOG, 'pipescope-watchdog', dir, keepDir ? '1' : '0', command, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  watchdog.stdin!.on('error', () => {}); // writing after the watchdog is gone is not an error worth a crash
  const gone = new Promise<void>((resolve) => watchdog.once('exit', () => resolve()));
  let said = '';
  const ended = new Promise<ProcessEnd>((resolve) => {
    watchdog.stdout!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const match = /exited (\d+)/.exec(said);
      if (match) resolve(processEnd(Number(match[1])));
    });
    // A watchdog killed outright never says; its own end is then the best we know.
    watchdog.once('exit', (code, signal) => resolve(processEnd(code ?? 128 + signalNumber(signal))));
  });
  void gone.then(() => rmSync(dir, { recursive: true, force: true }));
  return {
    watchdog,
    ended,
    gone,
    stop: async () => {
      if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.stdin!.write('stop\n');
      return ended;
    },
    release: async () => {
      watchdog.stdin!.end();
      await gone;
    },
  };
}

function processEnd(status: number): ProcessEnd {
  if (status > 128) {
    const name = SIGNAL_NAMES[status - 128];
    return { status, description: `killed by ${name ?? `signal ${status - 128}`}` };
  }
  return { status, description: `exited with status ${status}` };
}

const SIGNAL_NAMES: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 6: 'SIGABRT', 9: 'SIGKILL', 11: 'SIGSEGV', 15: 'SIGTERM' };

function signalNumber(signal: NodeJS.Signals | null): number {
  const entry = Object.entries(SIGNAL_NAMES).find(([, name]) => name === signal);
  return entry ? Number(entry[0]) : 0;
}
