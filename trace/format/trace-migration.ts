// Opens older traces as the current version. Version 1 → 2: each field version 2 added gets the value that says what a
// version-1 recorder did. Nothing measured is invented: a version-1 run had no warm-up (a cold
// connection), was its request's only repeat, asked for MONITOR and strace together exactly when it
// has a server trace, sampled memory exactly when it has samples, and measured neither when its client
// call returned (doneUs = the last reply's arrival) nor the kernel's TCP figures.
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The version-2 shape of a version-1 document, keys in version 2's order (the schema and the builder
 * decide the rest; a malformed file still gets their messages). The input is not modified.
 */
export function migrateVersion1(json: Json): Json {
  const run = isObject(json['run']) ? json['run'] : undefined;
  const totals = isObject(json['totals']) ? json['totals'] : undefined;
  const traced = json['serverTrace'] !== null && json['serverTrace'] !== undefined;
  const sampled = json['memory'] !== null && json['memory'] !== undefined;
  return {
    ...json,
    version: 2,
    run: run && {
      ...run,
      warmup: null,
      repeat: 0,
      probes: { monitor: traced, strace: traced, memory: sampled, kernelTcp: false },
    },
    totals: totals && { ...totals, doneUs: totals['durationUs'] },
    kernelTcp: null,
  };
}

/**
 * Version 2 → 3: a version-2 run was one of the plain modes, so its operations are its commands
 * (operations = n); it planted no error, had no neighbour and no held-connection probe, and nothing
 * was read back after it.
 */
export function migrateVersion2(json: Json): Json {
  const run = isObject(json['run']) ? json['run'] : undefined;
  const probes = run && isObject(run['probes']) ? run['probes'] : undefined;
  const { chunk, warmup, repeat, ...head } = run ?? {};
  return {
    ...json,
    version: 3,
    run: run && {
      ...head,
      operations: run['n'],
      ...(chunk === undefined ? {} : { chunk }),
      warmup,
      injectedError: null,
      repeat,
      probes: probes && { ...probes, heldConnection: false },
    },
    keysAfter: null,
    neighbor: null,
    heldConnection: null,
  };
}

/**
 * Version 3 → 4: every version-3 trace recorded a whole run (runs cut short left no trace). Writes
 * version 4 itself, not FORMAT_VERSION: a later version gets a step of its own after this one.
 */
export function migrateVersion3(json: Json): Json {
  return { ...json, version: 4, incomplete: null };
}
