// The runner's allow-list. Pipescope only ever sends these commands, and every key it names must lie
// in the run's namespace, so a run cannot read, change or delete data that is not its own.
export const RUN_NAMESPACE_PREFIX = 'pipescope:';

const KEYLESS = new Set(['PING', 'INFO', 'TIME']);
const SINGLE_KEY = new Set(['INCR', 'SET', 'GET']);
const MULTI_KEY = new Set(['UNLINK', 'EXISTS']);

export class RefusedCommandError extends Error {
  override name = 'RefusedCommandError';
}

export function namespaceFor(runId: string): string {
  if (!/^[a-z0-9-]{4,64}$/.test(runId)) throw new RefusedCommandError(`Invalid run id "${runId}"`);
  return `${RUN_NAMESPACE_PREFIX}${runId}:`;
}

/** Throws unless the command is on the allow-list and every key it names is under `namespace`. */
export function assertAllowed(namespace: string, name: string, args: readonly (string | number)[]): void {
  const command = name.toUpperCase();
  const keys = KEYLESS.has(command) ? [] : SINGLE_KEY.has(command) ? args.slice(0, 1) : MULTI_KEY.has(command) ? args : null;
  if (keys === null) throw new RefusedCommandError(`Refused: ${command} is not a command Pipescope runs.`);
  if (command === 'INFO' && args.some((section) => !['server', 'stats', 'memory', 'clients', 'all'].includes(String(section)))) {
    throw new RefusedCommandError('Refused: INFO is only read for server, stats, memory, clients and all.');
  }
  if (!namespace.startsWith(RUN_NAMESPACE_PREFIX)) throw new RefusedCommandError(`Refused: "${namespace}" is not a run namespace.`);
  if ((SINGLE_KEY.has(command) || MULTI_KEY.has(command)) && keys.length === 0) {
    throw new RefusedCommandError(`Refused: ${command} without a key.`);
  }
  for (const key of keys) {
    if (typeof key !== 'string' || !key.startsWith(namespace)) {
      throw new RefusedCommandError(`Refused: ${command} names key "${String(key)}" outside the run namespace ${namespace}*.`);
    }
  }
}
