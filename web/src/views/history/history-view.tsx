// The History tab: the runs saved in this browser (state/history-store.ts), newest first, the runs of one
// request (or of the files opened together) in one group. Show puts one run — or a whole group — back in
// the Runs view; Compare selected shows two to six picked runs there on one time scale; Delete and Clear
// history (after a confirm step) remove them. Kept mounted once shown, like the gallery, so the picks stay.
import { useState, useSyncExternalStore } from 'react';
import { commandTakesValue } from '../../../../trace/format/run-request.ts';
import { formatBytes, formatCount, formatRate, formatUs, plural } from '../../format/number-format.ts';
import { modeLabel } from '../../format/run-label.ts';
import {
  COMPARE_MAX, MAX_HISTORY_BYTES, MAX_HISTORY_RUNS, compareBlockedReason, historyGroups, pickBlockedReason, type HistoryEntry, type HistoryGroup,
} from '../../model/history-entries.ts';
import type { HistoryStore } from '../../state/history-store.ts';
import { useSidewaysScroll } from '../app/use-sideways-scroll.ts';
import './history-view.css';

interface Props {
  history: HistoryStore;
  shown: boolean;
  /** Called once saved runs are on their way to the Runs view; `compare`: several, to be read on one time scale. */
  onShowRuns: (compare: boolean) => void;
}

export function HistoryView({ history, shown, onShowRuns }: Props) {
  const snap = useSyncExternalStore(history.subscribe, history.getSnapshot);
  const [picked, setPicked] = useState<readonly string[]>([]);
  const [confirmClear, setConfirmClear] = useState(false);
  const [scroller, scrollProps] = useSidewaysScroll('Saved runs, a table that scrolls sideways');
  const groups = historyGroups(snap.entries);
  // Picks of runs deleted or evicted since drop out.
  const present = new Set(snap.entries.map((e) => e.id));
  const live = picked.filter((id) => present.has(id));
  const compareReason = compareBlockedReason(live.length);
  const limitReason = live.length >= COMPARE_MAX ? pickBlockedReason(live.length, false) : null;

  const toggle = (id: string) => setPicked(live.includes(id) ? live.filter((p) => p !== id) : [...live, id]);
  const show = async (ids: readonly string[], compare: boolean) => {
    if (await history.show(ids)) onShowRuns(compare);
  };
  const remove = (ids: readonly string[]) => {
    setPicked(live.filter((id) => !ids.includes(id)));
    void history.remove(ids);
  };

  return (
    <section className="history-view" hidden={!shown} data-testid="history-view" aria-label="Run history">
      <div className="history-intro">
        <h2>Run history</h2>
        <p>
          The runs shown in this browser — measured here, opened from files or loaded from links — kept across reloads, at most{' '}
          {MAX_HISTORY_RUNS} runs and {formatBytes(MAX_HISTORY_BYTES)} of traces (the oldest go first). Show one again, or pick 2 to {COMPARE_MAX} to
          compare on one time scale.
        </p>
      </div>
      {snap.status === 'off' && (
        <p className="history-off" role="status" data-testid="history-off">
          History is off: {snap.offReason}. Runs still work; they are not kept.
        </p>
      )}
      {snap.notice && (
        <p className="history-notice" role="status" data-testid="history-notice">
          {snap.notice}
        </p>
      )}
      {snap.status === 'on' && (
        <div className="history-actions">
          <button type="button" className="button primary" data-testid="history-compare" disabled={compareReason !== null} onClick={() => void show(live, true)}>
            Compare selected ({live.length})
          </button>
          <span className="history-hint" data-testid="history-compare-hint">
            {limitReason ?? compareReason ?? `${plural(live.length, 'run')} picked.`}
          </span>
          {live.length > 0 && (
            <button type="button" className="link-button" data-testid="history-unpick" onClick={() => setPicked([])}>
              Clear selection
            </button>
          )}
          <span className="history-spacer" />
          {confirmClear ? (
            <span className="history-confirm" role="group" aria-label="Confirm clearing the history">
              Delete all {plural(snap.entries.length, 'saved run')}?
              <button
                type="button"
                className="button danger"
                data-testid="history-clear-confirm"
                onClick={() => {
                  setConfirmClear(false);
                  setPicked([]);
                  void history.clear();
                }}
              >
                Delete all
              </button>
              <button type="button" className="button" data-testid="history-clear-cancel" onClick={() => setConfirmClear(false)}>
                Keep them
              </button>
            </span>
          ) : (
            <button type="button" className="button" data-testid="history-clear" disabled={snap.entries.length === 0} onClick={() => setConfirmClear(true)}>
              Clear history…
            </button>
          )}
        </div>
      )}
      {snap.status === 'on' && snap.entries.length === 0 && (
        <p className="history-empty" data-testid="history-empty">
          No saved runs yet. Every run shown from now on is kept here.
        </p>
      )}
      {groups.length > 0 && (
        <div className="history-table-card scroll-x" ref={scroller} {...scrollProps}>
          <table className="history-table" data-testid="history-table">
            <thead>
              <tr>
                <th scope="col">Pick</th>
                <th scope="col">When <span className="th-note">run started</span></th>
                <th scope="col">Mode</th>
                <th scope="col">Command</th>
                <th scope="col" className="num">N <span className="th-note">operations</span></th>
                <th scope="col">Client</th>
                <th scope="col" className="num">Added RTT</th>
                <th scope="col" className="num">Total time <span className="th-note">t0 → last reply</span></th>
                <th scope="col" className="num">Throughput <span className="th-note">ops/s over total</span></th>
                <th scope="col">Source</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            {groups.map((group) => (
              <GroupRows
                key={group.groupId}
                group={group}
                picked={live}
                unreadable={snap.unreadable}
                onToggle={toggle}
                onPickGroup={(ids) => setPicked([...live, ...ids.filter((id) => !live.includes(id))])}
                onShow={(ids) => void show(ids, ids.length > 1)}
                onDelete={remove}
              />
            ))}
          </table>
        </div>
      )}
    </section>
  );
}

interface GroupProps {
  group: HistoryGroup;
  picked: readonly string[];
  unreadable: Readonly<Record<string, string>>;
  onToggle: (id: string) => void;
  onPickGroup: (ids: readonly string[]) => void;
  onShow: (ids: readonly string[]) => void;
  onDelete: (ids: readonly string[]) => void;
}

function GroupRows({ group, picked, unreadable, onToggle, onPickGroup, onShow, onDelete }: GroupProps) {
  const ids = group.entries.filter((e) => !(e.id in unreadable)).map((e) => e.id);
  const unpicked = ids.filter((id) => !picked.includes(id));
  const groupPickReason =
    unpicked.length === 0 ? 'All of these are picked.'
    : picked.length + unpicked.length > COMPARE_MAX ? `Picking these would make ${picked.length + unpicked.length}; at most ${COMPARE_MAX} runs compare at once.`
    : null;
  const several = group.entries.length > 1;
  const repeated = group.entries.some((e) => e.repeat > 0);
  return (
    <tbody data-testid="history-group" data-group={group.groupId}>
      <tr className="history-group-row">
        <th colSpan={11} scope="rowgroup">
          <span className="history-group-title" data-testid="history-group-title">{groupTitle(group)}</span>
          {several && (
            <>
              <button type="button" className="link-button" data-testid="history-pick-group" disabled={groupPickReason !== null} title={groupPickReason ?? 'Pick every run of this group for Compare'} onClick={() => onPickGroup(unpicked)}>
                Pick these
              </button>
              <button type="button" className="link-button" data-testid="history-show-group" disabled={ids.length === 0} onClick={() => onShow(ids)}>
                Show all {ids.length}
              </button>
            </>
          )}
        </th>
      </tr>
      {group.entries.map((entry) => {
        const problem = unreadable[entry.id];
        const isPicked = picked.includes(entry.id);
        const blocked = problem ? `Unreadable: ${problem}` : pickBlockedReason(picked.length, isPicked);
        return (
          <tr key={entry.id} data-testid="history-row" data-id={entry.id} data-mode={entry.mode} className={isPicked ? 'picked' : undefined}>
            <td>
              <input
                type="checkbox"
                data-testid="history-pick"
                checked={isPicked}
                disabled={blocked !== null}
                title={blocked ?? undefined}
                aria-label={`Pick ${modeLabel(entry.mode, entry.chunk ?? undefined)} ${formatCount(entry.operations)} × ${entry.command} of ${whenText(entry)}`}
                onChange={() => onToggle(entry.id)}
              />
            </td>
            <td data-testid="history-when">{whenText(entry)}</td>
            <td>
              {modeLabel(entry.mode, entry.chunk ?? undefined)}
              {repeated && <span className="history-repeat"> · repeat {entry.repeat + 1}</span>}
              {entry.incomplete && <span className="history-incomplete" data-testid="history-incomplete"> · incomplete ({entry.incomplete.replace('-', ' ')})</span>}
            </td>
            <td>{commandText(entry)}</td>
            <td className="num">{formatCount(entry.operations)}</td>
            <td>{entry.client}</td>
            <td className="num">{entry.addedRttMs > 0 ? `${formatCount(entry.addedRttMs)} ms` : 'none'}</td>
            <td className="num" data-testid="history-duration">{formatUs(entry.durationUs)}</td>
            <td className="num">{formatRate(entry.opsPerSec)}</td>
            <td className="history-source" title={entry.origin ?? undefined}>
              {sourceText(entry)}
              {problem && <span className="history-problem" data-testid="history-problem">unreadable: {problem}</span>}
            </td>
            <td className="history-row-actions">
              <button type="button" className="link-button" data-testid="history-show" disabled={problem !== undefined} onClick={() => onShow([entry.id])}>
                Show
              </button>
              <button type="button" className="link-button" data-testid="history-delete" aria-label={`Delete this run from the history`} onClick={() => onDelete([entry.id])}>
                Delete
              </button>
            </td>
          </tr>
        );
      })}
    </tbody>
  );
}

/** When the run started, in this browser's locale (minutes and seconds: runs of one request are seconds apart). */
function whenText(entry: HistoryEntry): string {
  const at = new Date(entry.startedAt);
  return Number.isNaN(at.getTime()) ? entry.startedAt : at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

function commandText(entry: HistoryEntry): string {
  return commandTakesValue(entry.command) ? `${entry.command} (${formatCount(entry.valueBytes)} B)` : entry.command;
}

function sourceText(entry: HistoryEntry): string {
  if (entry.source === 'live') return 'live';
  const what = entry.source === 'file' ? 'file' : 'link';
  return entry.origin ? `${what}: ${shortOrigin(entry.origin)}` : what;
}

/** A file name as it is; a URL by its last path segment. */
function shortOrigin(origin: string): string {
  const last = origin.split(/[/\\]/).filter(Boolean).at(-1);
  return last ?? origin;
}

/** "Live request: 2 modes × 5 repeats", "Opened together: 3 files", "Loaded from 2 links". */
function groupTitle(group: HistoryGroup): string {
  const { entries } = group;
  const source = entries[0]!.source;
  const modes = new Set(entries.map((e) => `${e.mode}:${e.chunk ?? ''}`)).size;
  const repeats = Math.max(...entries.map((e) => e.repeat)) + 1;
  if (source === 'live') {
    const shape = repeats > 1 ? `${plural(modes, 'mode')} × ${plural(repeats, 'repeat')}` : plural(entries.length, 'run');
    return `Live request: ${shape}`;
  }
  if (source === 'file') return entries.length > 1 ? `Opened together: ${plural(entries.length, 'file')}` : 'Opened from a file';
  return entries.length > 1 ? `Loaded from ${plural(entries.length, 'link')}` : 'Loaded from a link';
}
