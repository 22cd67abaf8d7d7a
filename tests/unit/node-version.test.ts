import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/server/node-version';

describe('the Node.js version the production entry checks', () => {
  it('names the Node needed and the one found when it is older than engines', () => {
    for (const found of ['20.20.2', '22.17.9', 'v18.0.0', '22']) {
      const problem = nodeVersionProblem(found, '>=22.18');
      expect(problem, found).toContain('needs Node.js 22.18 or later');
      expect(problem, found).toContain(`this is Node.js ${found.replace(/^v/, '')}`);
    }
  });

  it('says nothing for the version engines names or a later one', () => {
    for (const found of ['22.18.0', '22.18', '22.19.1', '23.0.0', '24.21.0', 'v100.0.0'])
      expect(nodeVersionProblem(found, '>=22.18'), found).toBeUndefined();
    expect(nodeVersionProblem('22.18.1', '>= 22.18.1')).toBeUndefined();
    expect(nodeVersionProblem('22.18.0', '>=22.18.1')).toContain('22.18.1 or later');
  });
});
