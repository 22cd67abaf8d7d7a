import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkflowAction } from '../../src/core/definitions/shapes/action';
import { WorkflowList } from '../../src/core/definitions/shapes/list';
import { WorkflowScreen } from '../../src/core/definitions/shapes/screen';
import { WorkflowDefinition } from '../../src/core/definitions/shapes/workflow';

/**
 * The workflow designer's forms are drawn from the shapes (WorkflowSchemaForm): each keyword of
 * a status, an action, a screen and a list is a field labelled by studio.keywords.<name>. A
 * keyword added to a shape shows by itself; this asks for its label and help in both languages.
 */
const propertiesOf = (schema: unknown): string[] =>
  Object.keys((schema as { properties?: Record<string, unknown> }).properties ?? {});

const machine = (WorkflowDefinition as { properties: Record<string, unknown> }).properties
  .machine as { properties: { states: { additionalProperties: unknown } } };
const PARTS = {
  status: machine.properties.states.additionalProperties,
  action: WorkflowAction,
  screen: WorkflowScreen,
  list: WorkflowList,
  // The workflow's own moves of stored documents, a form of their own below the drawing.
  storedMoves: {
    properties: {
      statusMoves: (WorkflowDefinition as { properties: Record<string, unknown> }).properties
        .statusMoves,
      dataMoves: (WorkflowDefinition as { properties: Record<string, unknown> }).properties
        .dataMoves,
    },
  },
};

const studioTexts = (language: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '../../translations', language, 'studio.json'), 'utf8'),
  ) as { keywords: Record<string, { label?: string; help?: string }> };

describe('the workflow designer names every keyword in words', () => {
  for (const language of ['en', 'fr'])
    it(`has a label and a help for each keyword in ${language}`, () => {
      const { keywords } = studioTexts(language);
      const missing = Object.entries(PARTS).flatMap(([part, schema]) =>
        propertiesOf(schema)
          .filter((name) => !keywords[name]?.label || !keywords[name]?.help)
          .map((name) => `${part}.${name}`),
      );
      expect(missing).toEqual([]);
      // The parts are read where the shapes keep them: an empty one would pass any check.
      for (const schema of Object.values(PARTS))
        expect(propertiesOf(schema).length).toBeGreaterThan(1);
    });

  it('says them in French in French', () => {
    expect(studioTexts('fr').keywords.onBehalf?.label).toBe('Pour le compte de');
    expect(studioTexts('en').keywords.onBehalf?.label).toBe('On behalf of');
  });
});
