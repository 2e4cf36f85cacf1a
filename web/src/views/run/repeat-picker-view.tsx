// The small control in a run panel's header that picks which repeat its diagram (and everything drawn
// from one trace: phases, latency histogram, memory, wire view) shows: "repeat 3 of 5 · 1.19 ms · median".
// The median repeat is the default; the figures in the summary stay median [min–max] over all repeats.
// Nothing for a run of one repeat.
import type { RunGroup } from '../../model/run-groups.ts';
import { repeatOptionText } from '../../format/repeat-text.ts';
import './repeat-picker-view.css';

interface Props {
  group: RunGroup;
  /** The run id of the repeat shown. */
  shownRunId: string;
  onPick: (runId: string) => void;
}

export function RepeatPickerView({ group, shownRunId, onPick }: Props) {
  if (group.repeats.length < 2) return null;
  return (
    <label className="repeat-picker" title="Which repeat the diagram shows; the summary gives median [min–max] over all of them">
      <span className="visually-hidden">Repeat shown</span>
      <select data-testid="repeat-picker" value={shownRunId} onChange={(e) => onPick(e.target.value)}>
        {group.repeats.map((doc, i) => (
          <option key={doc.run.id} value={doc.run.id}>
            {repeatOptionText(doc, i, group)}
          </option>
        ))}
      </select>
    </label>
  );
}
