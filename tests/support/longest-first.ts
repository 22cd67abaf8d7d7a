import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files known to take much longer than the rest, started before all others. In a fresh clone
 * (CI) Vitest knows no earlier durations: it queues the projects one after another (api,
 * component, e2e), each largest file first, and the persona walk (a short file that visits 316
 * pages, a fifth of the run's work) started near the end and ran alone for minutes while the
 * other worker had nothing left to take.
 */
const LONGEST = ['tests/e2e/persona-walk.test.ts'];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const long = (spec: TestSpecification) => LONGEST.some((file) => spec.moduleId.endsWith(file));
    return [...sorted.filter(long), ...sorted.filter((spec) => !long(spec))];
  }
}
