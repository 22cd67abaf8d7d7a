import type { Reporter, TestModule } from 'vitest/node';

/** How many of the longest files the summary names. */
const LONGEST_SHOWN = 15;

/**
 * Closes the run with one plain line, `N passed, N failed, N skipped`, for CI logs, after the
 * files that took longest (their tests and hooks): where a slower suite spends its time, read
 * from any CI log rather than guessed.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const longest = [...testModules]
      .map((module) => ({
        file: `${module.project.name}/${module.relativeModuleId.replace(/^tests\/[a-z0-9]+\//, '')}`,
        seconds: module.diagnostic().duration / 1000,
      }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, LONGEST_SHOWN);
    if (longest.length > 0) {
      process.stdout.write(`\nLongest files (tests and hooks, seconds):\n`);
      for (const { file, seconds } of longest)
        process.stdout.write(`${seconds.toFixed(1).padStart(8)}  ${file}\n`);
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
