// Golden screenshots that can fail: a PNG is compared with its committed golden pixel by pixel
// (pixelmatch), and passes while the share of differing pixels stays within a small tolerance. On a
// mismatch the screenshot is written as <name>-changed.png and the differences as <name>-diff.png (in the
// git-ignored artifacts folder) and the error names the files. UPDATE_GOLDENS=1 writes the screenshot
// as the golden instead — only where it is missing or fails, so goldens do not churn on invisible noise.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

export interface ImageTolerance {
  /** pixelmatch's per-pixel threshold: YIQ colour distance 0–1 above which a pixel differs (its default 0.1). */
  threshold: number;
  /** Largest share of differing pixels that still passes, 0–1 (0.0001 = 0.01 %). */
  maxDiffShare: number;
}

/**
 * Same machine, same Chromium, same fonts: screenshots repeat byte for byte, so the share is kept tight —
 * 0.01 % is ~300 pixels of a 1400 × 2400 screenshot. pixelmatch already discounts pixels it takes for
 * anti-aliasing, which includes most of a recoloured 1 px line: at 0.1 % every request arrow turning a
 * lighter blue went unnoticed in one view (3,190 differing pixels of 2.9 million).
 */
export const DEFAULT_TOLERANCE: ImageTolerance = { threshold: 0.1, maxDiffShare: 0.0001 };

export interface ImageComparison {
  /** Size compared: the larger of the two in each direction (a size change counts the uncovered pixels as differing). */
  width: number;
  height: number;
  sameSize: boolean;
  differing: number;
  /** differing ÷ (width × height). */
  share: number;
  /** Differing pixels red over a faded copy of the golden, as a PNG. */
  diffPng: Buffer;
}

/** Opaque magenta where an image does not reach: differs from anything a page draws. */
function padded(png: PNG, width: number, height: number): Uint8Array {
  if (png.width === width && png.height === height) return png.data;
  const out = new Uint8Array(width * height * 4);
  for (let i = 0; i < out.length; i += 4) out.set([255, 0, 255, 255], i);
  for (let y = 0; y < png.height; y++) out.set(png.data.subarray(y * png.width * 4, (y + 1) * png.width * 4), y * width * 4);
  return out;
}

export function compareImages(golden: Buffer, actual: Buffer, tolerance: ImageTolerance = DEFAULT_TOLERANCE): ImageComparison {
  const a = PNG.sync.read(golden);
  const b = PNG.sync.read(actual);
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const diff = new PNG({ width, height });
  const differing = pixelmatch(padded(a, width, height), padded(b, width, height), diff.data, width, height, { threshold: tolerance.threshold });
  return {
    width,
    height,
    sameSize: a.width === b.width && a.height === b.height,
    differing,
    share: differing / (width * height),
    diffPng: PNG.sync.write(diff),
  };
}

export interface GoldenFiles {
  /** The committed golden, e.g. e2e/goldens/live-run-both-modes.png. */
  golden: string;
  /** Written on a mismatch: the screenshot taken, and the differences. */
  changed: string;
  diff: string;
}

export function goldenFiles(goldensDir: string, artifactsDir: string, name: string): GoldenFiles {
  return { golden: join(goldensDir, `${name}.png`), changed: join(artifactsDir, `${name}-changed.png`), diff: join(artifactsDir, `${name}-diff.png`) };
}

const show = (path: string) => relative(process.cwd(), path) || path;
const percent = (share: number) => `${(share * 100).toFixed(3)} %`;

/**
 * Throws unless `actual` (a PNG) matches the golden within `tolerance`. update (default: UPDATE_GOLDENS=1
 * in the environment) writes `actual` as the golden where it is missing or does not match.
 */
export function expectMatchesGoldenImage(
  actual: Buffer,
  files: GoldenFiles,
  tolerance: ImageTolerance = DEFAULT_TOLERANCE,
  update = process.env['UPDATE_GOLDENS'] === '1',
): void {
  const clearOutputs = () => [files.changed, files.diff].forEach((f) => rmSync(f, { force: true }));
  const golden = existsSync(files.golden) ? readFileSync(files.golden) : null;
  const result = golden ? compareImages(golden, actual, tolerance) : null;
  const passes = result !== null && result.share <= tolerance.maxDiffShare;
  if (passes || update) {
    if (!passes) {
      mkdirSync(dirname(files.golden), { recursive: true });
      writeFileSync(files.golden, actual);
    }
    clearOutputs();
    return;
  }
  clearOutputs();
  mkdirSync(dirname(files.changed), { recursive: true });
  writeFileSync(files.changed, actual);
  const howToUpdate = 'If the change is intended, look at it, then run the test again with UPDATE_GOLDENS=1 to make it the golden.';
  if (!result) throw new Error(`No golden at ${show(files.golden)}; the screenshot is in ${show(files.changed)}. ${howToUpdate}`);
  writeFileSync(files.diff, result.diffPng);
  const size = result.sameSize ? '' : ` The sizes differ (compared at ${result.width}×${result.height}).`;
  throw new Error(
    `The screenshot differs from its golden ${show(files.golden)}: ${result.differing.toLocaleString('en-US')} of ` +
      `${(result.width * result.height).toLocaleString('en-US')} pixels (${percent(result.share)}) beyond threshold ${tolerance.threshold}, ` +
      `${percent(tolerance.maxDiffShare)} allowed.${size} Screenshot: ${show(files.changed)}; differences in red: ${show(files.diff)}. ${howToUpdate}`,
  );
}
