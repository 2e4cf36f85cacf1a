import { describe, expect, it } from 'vitest';
import { runGroups, shownRepeat } from '../model/run-groups.ts';
import { repeatsOf } from '../test-support/repeat-fixtures.ts';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { DEFAULT_DISPLAY_LINK, displayKeysOf, displayLinkOfHash } from './display-link.ts';
import { picksLinkFields, picksOfLink, wireRunOfLink } from './run-picks-link.ts';

const seq = repeatsOf(sequentialTrace(10, 100, 20), [1300, 1100, 1190]);
const pipe = repeatsOf(pipelineTrace(10, 10, 10, 120), [130, 95, 120]);
const groups = runGroups([seq[0]!, pipe[0]!, seq[1]!, pipe[1]!, seq[2]!, pipe[2]!]);
/** repeat= and wire= as the link writes them. */
const fieldsOf = (picks: ReturnType<typeof picksLinkFields>) => {
  const keys = displayKeysOf({ ...DEFAULT_DISPLAY_LINK, ...picks });
  return { repeat: keys['repeat'] ?? null, wire: keys['wire'] ?? null };
};

describe('repeat= and wire= for the runs on screen', () => {
  it('reads the picked repeats by panel and repeat position', () => {
    expect(picksOfLink(displayLinkOfHash('#repeat=2:1'), groups)).toEqual({ [groups[1]!.key]: pipe[0]!.run.id });
    expect(picksOfLink(displayLinkOfHash('#repeat=3:1,1:9,x'), groups)).toEqual({});
  });

  it('writes only the panels not showing their median, and round-trips', () => {
    const picks = { [groups[1]!.key]: pipe[1]!.run.id };
    const shown = groups.map((g) => shownRepeat(g, picks[g.key]));
    const fields = fieldsOf(picksLinkFields(groups, shown, shown[1]!.run.id));
    expect(fields).toEqual({ repeat: '2:2', wire: '2' });
    const link = displayLinkOfHash(`#repeat=${fields.repeat!}&wire=${fields.wire!}`);
    expect(picksOfLink(link, groups)).toEqual(picks);
    expect(wireRunOfLink(link, shown)).toBe(pipe[1]!.run.id);
  });

  it('writes nothing for the defaults: medians, the first panel in the wire view', () => {
    const shown = groups.map((g) => g.median);
    expect(fieldsOf(picksLinkFields(groups, shown, null))).toEqual({ repeat: null, wire: null });
    expect(fieldsOf(picksLinkFields(groups, shown, 'no-such-run'))).toEqual({ repeat: null, wire: null });
    expect(wireRunOfLink(displayLinkOfHash('#wire=7'), shown)).toBeNull();
  });
});
