// Each migration step writes the version it migrates to, as a literal: a step stays right when
// FORMAT_VERSION moves on (the next version gets a step of its own after it). The documents as a
// whole are checked through import in trace-io.test.ts.
import { describe, expect, it } from 'vitest';
import { migrateVersion1, migrateVersion2, migrateVersion3 } from './trace-migration.ts';

describe('migration steps', () => {
  it('1 → 2, 2 → 3, 3 → 4: each writes its own target version', () => {
    expect(migrateVersion1({ version: 1 })['version']).toBe(2);
    expect(migrateVersion2({ version: 2 })['version']).toBe(3);
    expect(migrateVersion3({ version: 3 })['version']).toBe(4);
  });

  it('3 → 4 marks the run whole and leaves its input as it was', () => {
    const v3 = { format: 'pipescope-trace', version: 3, run: { n: 1 } };
    expect(migrateVersion3(v3)).toEqual({ format: 'pipescope-trace', version: 4, run: { n: 1 }, incomplete: null });
    expect(v3).toEqual({ format: 'pipescope-trace', version: 3, run: { n: 1 } });
  });
});
