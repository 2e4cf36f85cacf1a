// Runs axe-core (node_modules/axe-core, no network) in a page and returns its serious and critical
// violations, each as a readable line per failing element, so a failing test says what to fix where.
// The script is injected as a <script> with its source: the page's context must bypass the app's CSP
// (golden-page.ts openFixtures does), which allows no inline script.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What the test reports of one violation (axe's result, trimmed to what says where and why). */
export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  /** One line per element: its CSS selector, then axe's summary of what fails there. */
  nodes: string[];
}

/** Serious and critical violations only (the bar we hold to); minor and moderate ones are not returned. */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    type AxeResult = { violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResult> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        nodes: v.nodes.map((n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`),
      }));
  });
}

/** The findings as a message a developer can act on: rule, impact, help, then each element. */
export function describeFindings(findings: AxeFinding[]): string {
  return findings
    .map((f) => `${f.id} (${f.impact}): ${f.help}\n${f.nodes.map((n) => `  ${n}`).join('\n')}`)
    .join('\n');
}
