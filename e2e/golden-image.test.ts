// The golden-screenshot comparison on tiny synthetic PNGs: an identical image passes and leaves no
// files; a changed one fails, names its -changed and -diff files and writes them; a size change, a
// missing golden and UPDATE_GOLDENS behave as golden-image.ts says. No browser: a unit test.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareImages, expectMatchesGoldenImage, goldenFiles, type GoldenFiles } from './golden-image.ts';

const W = 20;
const H = 10;

/** A W×H PNG, light grey, with the given pixels painted in the given RGB colour. */
function png(painted: [x: number, y: number][] = [], rgb: [number, number, number] = [0, 114, 178], width = W, height = H): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < image.data.length; i += 4) image.data.set([244, 246, 248, 255], i);
  for (const [x, y] of painted) image.data.set([...rgb, 255], (y * width + x) * 4);
  return PNG.sync.write(image);
}

/** A 3-pixel-long "arrow" on row 5. */
const ARROW: [number, number][] = [[4, 5], [5, 5], [6, 5]];

let dir: string;
let files: GoldenFiles;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golden-image-'));
  files = goldenFiles(join(dir, 'goldens'), join(dir, 'artifacts'), 'arrow');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const writeGolden = (image: Buffer) => {
  expectMatchesGoldenImage(image, files, undefined, true);
  expect(existsSync(files.golden)).toBe(true);
};

describe('compareImages', () => {
  it('counts no difference between identical images, and each changed pixel once', () => {
    expect(compareImages(png(ARROW), png(ARROW)).differing).toBe(0);
    const moved = compareImages(png(ARROW), png([[4, 6], [5, 6], [6, 6]]));
    expect(moved.differing).toBe(6); // 3 pixels gone, 3 new
    expect(moved.share).toBeCloseTo(6 / (W * H));
  });

  it('ignores a colour change below the per-pixel threshold', () => {
    expect(compareImages(png(ARROW, [0, 114, 178]), png(ARROW, [1, 115, 179])).differing).toBe(0);
  });

  it('counts the uncovered area of a size change as differing', () => {
    const result = compareImages(png(), png([], undefined, W, H + 2));
    expect(result.sameSize).toBe(false);
    expect(result.differing).toBe(W * 2);
  });
});

describe('expectMatchesGoldenImage', () => {
  it('passes on an identical image and writes nothing', () => {
    writeGolden(png(ARROW));
    expectMatchesGoldenImage(png(ARROW), files, undefined, false);
    expect(existsSync(files.changed)).toBe(false);
    expect(existsSync(files.diff)).toBe(false);
  });

  it('fails on a changed image, naming the golden, the -changed and the -diff files, and writes both', () => {
    writeGolden(png(ARROW));
    const changed = png(ARROW, [213, 94, 0]); // the arrow in the reply colour
    expect(() => expectMatchesGoldenImage(changed, files, undefined, false)).toThrow(
      /differs from its golden .*arrow\.png: 3 of 200 pixels \(1\.500 %\).*0\.010 % allowed.*arrow-changed\.png.*arrow-diff\.png.*UPDATE_GOLDENS=1/,
    );
    expect(readFileSync(files.changed)).toEqual(changed);
    const diff = PNG.sync.read(readFileSync(files.diff));
    expect([diff.width, diff.height]).toEqual([W, H]);
    expect([...diff.data.subarray((5 * W + 5) * 4, (5 * W + 5) * 4 + 3)]).toEqual([255, 0, 0]); // red where they differ
  });

  it('passes within the tolerated share, and cleans up the files of an earlier failure', () => {
    writeGolden(png(ARROW));
    mkdirSync(join(dir, 'artifacts'));
    writeFileSync(files.changed, 'stale');
    expectMatchesGoldenImage(png([...ARROW, [10, 2]]), files, { threshold: 0.1, maxDiffShare: 0.01 }, false); // 1 of 200 = 0.5 %
    expect(existsSync(files.changed)).toBe(false);
  });

  it('fails when the size changed', () => {
    writeGolden(png(ARROW));
    expect(() => expectMatchesGoldenImage(png(ARROW, undefined, W, H + 1), files, undefined, false)).toThrow(/sizes differ \(compared at 20×11\)/);
  });

  it('fails without a golden, keeping the screenshot to look at', () => {
    expect(() => expectMatchesGoldenImage(png(ARROW), files, undefined, false)).toThrow(/No golden at .*arrow\.png; the screenshot is in .*arrow-changed\.png/);
    expect(existsSync(files.changed)).toBe(true);
    expect(existsSync(files.golden)).toBe(false);
  });

  it('with update, rewrites a golden that fails and keeps one that passes', () => {
    writeGolden(png(ARROW));
    const before = readFileSync(files.golden);
    expectMatchesGoldenImage(png(ARROW, [0, 114, 179]), files, undefined, true); // within threshold: kept
    expect(readFileSync(files.golden)).toEqual(before);
    const moved = png([[4, 6], [5, 6], [6, 6]]);
    expectMatchesGoldenImage(moved, files, undefined, true);
    expect(readFileSync(files.golden)).toEqual(moved);
    expectMatchesGoldenImage(moved, files, undefined, false);
  });
});
