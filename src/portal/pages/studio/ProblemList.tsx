import { Code, List, Text } from '@mantine/core';
import type { DefinitionProblem } from './useStudioDraft';

/** Problems of a draft, each with its file and the place in it (a JSON pointer). */
export function ProblemList({ problems }: { problems: readonly DefinitionProblem[] }) {
  return (
    <List size="sm" spacing={4}>
      {problems.map((problem, index) => (
        <List.Item key={index}>
          <Code>{problem.file}</Code> {problem.pointer && <Code>{problem.pointer}</Code>}{' '}
          <Text span size="sm">
            {problem.message}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
