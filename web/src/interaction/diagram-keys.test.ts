import { describe, expect, it } from 'vitest';
import { allMarks, type MarkRef } from '../model/diagram-marks.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { sequentialTrace, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { diagramKeyAction, type DiagramKeyPress } from './diagram-keys.ts';
import { keyAction } from './playback-keys.ts';

const press = (key: string, mods: Partial<DiagramKeyPress> = {}): DiagramKeyPress => ({ key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods });
const cursorTo = (mark: MarkRef | null) => ({ kind: 'cursor', mark });

describe('diagramKeyAction', () => {
  // Per command: its request (t), read() (t+30), execution (t+45), write() (t+60), epoll_wait (t+70).
  const columns = traceColumns(serverTracedSequential(4));
  const all = allMarks(columns);

  it('↑/↓ walk every mark in time order, ten at a time with Shift; from no mark both start at the first', () => {
    expect(diagramKeyAction(press('ArrowDown'), columns, null)).toEqual(cursorTo(all[0]!));
    expect(diagramKeyAction(press('ArrowUp'), columns, null)).toEqual(cursorTo(all[0]!));
    expect(diagramKeyAction(press('ArrowDown'), columns, all[3]!)).toEqual(cursorTo(all[4]!));
    expect(diagramKeyAction(press('ArrowUp'), columns, all[3]!)).toEqual(cursorTo(all[2]!));
    expect(diagramKeyAction(press('ArrowDown', { shiftKey: true }), columns, all[2]!)).toEqual(cursorTo(all[12]!));
    expect(diagramKeyAction(press('ArrowUp', { shiftKey: true }), columns, all[3]!)).toEqual(cursorTo(all[0]!));
    expect(diagramKeyAction(press('ArrowDown'), columns, all.at(-1)!)).toEqual(cursorTo(all.at(-1)!));
  });

  it('C, E, S, O jump to the next mark of their kind, Shift to the previous', () => {
    const execution1 = { kind: 'execution', index: 1 } as const; // command 1 ran at 175 µs
    expect(diagramKeyAction(press('c'), columns, execution1)).toEqual(cursorTo({ kind: 'command', index: 2 }));
    expect(diagramKeyAction(press('C', { shiftKey: true }), columns, execution1)).toEqual(cursorTo({ kind: 'command', index: 1 }));
    expect(diagramKeyAction(press('s'), columns, execution1)).toEqual(cursorTo({ kind: 'syscall', index: 4 }));
    expect(diagramKeyAction(press('S', { shiftKey: true }), columns, execution1)).toEqual(cursorTo({ kind: 'syscall', index: 3 }));
    expect(diagramKeyAction(press('e'), columns, null)).toEqual(cursorTo({ kind: 'execution', index: 0 }));
  });

  it('keeps the cursor, and the key, when the run has no mark of that kind', () => {
    const execution1 = { kind: 'execution', index: 1 } as const;
    expect(diagramKeyAction(press('o'), columns, execution1)).toEqual(cursorTo(execution1));
    expect(diagramKeyAction(press('o'), columns, null)).toEqual(cursorTo(null));
    const plain = traceColumns(sequentialTrace(3));
    expect(diagramKeyAction(press('s'), plain, { kind: 'command', index: 1 })).toEqual(cursorTo({ kind: 'command', index: 1 }));
  });

  it('Esc leaves the marks, and is the page\'s when the cursor is on none', () => {
    expect(diagramKeyAction(press('Escape'), columns, all[5]!)).toEqual(cursorTo(null));
    expect(diagramKeyAction(press('Escape'), columns, null)).toBeNull();
  });

  it('] and [ zoom by 2 and 1/2, 0 resets', () => {
    expect(diagramKeyAction(press(']'), columns, null)).toEqual({ kind: 'zoom-by', factor: 2 });
    expect(diagramKeyAction(press('['), columns, all[1]!)).toEqual({ kind: 'zoom-by', factor: 0.5 });
    expect(diagramKeyAction(press('0'), columns, null)).toEqual({ kind: 'zoom-reset' });
  });

  it('leaves keys with Ctrl, ⌘ or Alt to the browser, and other keys to the page', () => {
    for (const mods of [{ ctrlKey: true }, { metaKey: true }, { altKey: true }]) {
      for (const key of ['ArrowDown', ']', '0', 'c', 'Escape']) expect(diagramKeyAction(press(key, mods), columns, all[1]!)).toBeNull();
    }
    for (const key of ['ArrowLeft', 'ArrowRight', 'Home', 'End', '+', '-', ' ', 'f', '?', 'x', 'Enter']) {
      expect(diagramKeyAction(press(key), columns, all[1]!)).toBeNull();
    }
  });

  it('shares no key with the page\'s playback keys', () => {
    for (const key of ['ArrowDown', 'ArrowUp', 'Escape', ']', '[', '0', 'c', 'e', 's', 'o', 'C', 'E', 'S', 'O']) {
      expect(diagramKeyAction(press(key), columns, all[1]!)).not.toBeNull();
      expect(keyAction({ ...press(key), defaultPrevented: false, target: null })).toBeNull();
    }
  });
});
