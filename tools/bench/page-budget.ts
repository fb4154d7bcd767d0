// The page budget CI holds (issue 8): for each policy, the pages its primary benchmark case writes
// on a fresh instance, as the benchmark last recorded them. `npm run bench` rewrites the entries
// of the policies it measured; tests/page-budget.test.ts fails when a change writes more pages
// than recorded plus PAGE_MARGIN, so memory that spreads again is caught without timing anything.
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./guests";
import type { BenchReport } from "./types";

export const PAGE_BUDGET_FILE = path.join(ROOT, "tools", "bench", "page-budget.json");
/** pages a change may add before the test fails (layout shifts move a boundary by one) */
export const PAGE_MARGIN = 1;
/** bytes written a change may add before the test fails: a regression within the page margin
 *  (cacheblend-injector once decoded the same 612-byte string five times, 3.2 KB, one page) is
 *  caught, while a few more small objects are not */
export const BYTES_MARGIN = 1024;

export interface PageBudgetEntry {
  case: string;
  pages: number;
  /** bytes the evaluation wrote (absent in entries recorded before they were counted) */
  bytes?: number;
  minimalPages: number;
  recorded: string;
  commit: string | null;
}
export type PageBudget = Record<string, PageBudgetEntry>;

export function readPageBudget(file = PAGE_BUDGET_FILE): PageBudget {
  if (!fs.existsSync(file)) return {};
  return JSON.parse(fs.readFileSync(file, "utf8")) as PageBudget;
}

/** the budget with the entries of the policies `report` measured on their own build replaced */
export function updatedPageBudget(
  current: PageBudget,
  report: BenchReport,
  measuredOwnBuild: (policy: string) => boolean,
): PageBudget {
  const next: PageBudget = { ...current };
  for (const p of report.policies) {
    const c = p.cases.find((k) => k.primary);
    if (!c?.pages || !measuredOwnBuild(p.name)) continue;
    next[p.name] = {
      case: c.name,
      pages: c.pages.policy,
      bytes: c.pages.bytes,
      minimalPages: c.pages.minimal,
      recorded: report.startedAt,
      commit: report.environment.commit,
    };
  }
  return Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
}

export function writePageBudget(budget: PageBudget, file = PAGE_BUDGET_FILE): void {
  fs.writeFileSync(file, JSON.stringify(budget, null, 2) + "\n");
}
