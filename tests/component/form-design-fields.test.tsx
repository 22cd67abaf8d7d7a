// The form designer's parts as the analyst meets them: each kind asks for its own constraints
// (a pattern with its message in both languages, an enumeration's values with their names, a
// document reference's type and statuses), and a condition is chosen as field, operator, value,
// among the field's own values when it has them; nothing is typed as JSON.
import { useState } from 'react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import axe from 'axe-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDefinition } from '../../src/core/definitions/types';
import type {
  DecidingField,
  FieldCondition,
  FormFieldDesign,
} from '../../src/core/studio/schema-design';
import { FieldConditionInputs } from '../../src/portal/pages/studio/FieldCondition';
import { FieldConstraints } from '../../src/portal/pages/studio/FieldConstraints';
import { initPortalTexts } from './portal-texts';

beforeAll(() => initPortalTexts(['studio']));

const COUNTRY = {
  id: 'country',
  key: ['code'],
  labels: { en: { title: 'Countries' }, fr: { title: 'Pays' } },
  schema: { type: 'object', properties: { code: { type: 'string', maxLength: 2 } } },
} as unknown as CatalogDefinition;

/** The constraints of a field whose design the test reads back after each change. */
function Constraints(props: { start: FormFieldDesign; seen: { design?: FormFieldDesign } }) {
  const [field, setField] = useState(props.start);
  props.seen.design = field;
  return (
    <MantineProvider>
      <FieldConstraints
        field={field}
        set={(change) => setField((old) => ({ ...old, ...change }))}
        catalogs={[COUNTRY]}
        documentTypes={[{ id: 'sponsor-application', statuses: ['SUBMITTED', 'GRANTED'] }]}
        inList={false}
      />
    </MantineProvider>
  );
}

const design = (type: FormFieldDesign['type']): FormFieldDesign => ({
  section: 'contact',
  name: 'x',
  type,
  required: false,
  labelEn: 'X',
  labelFr: 'X',
});

describe('the constraints of a field kind', () => {
  it('asks a text for its lengths and format, and the format for its message in both languages', async () => {
    const seen: { design?: FormFieldDesign } = {};
    const { container } = render(<Constraints start={design('text')} seen={seen} />);
    expect(screen.queryByLabelText(/Message when the format is wrong/)).toBeNull();
    fireEvent.change(screen.getByLabelText('Format (regular expression)'), {
      target: { value: '^[0-9]{11}$' },
    });
    fireEvent.change(screen.getByLabelText(/Message when the format is wrong, in English/), {
      target: { value: 'Eleven digits' },
    });
    fireEvent.change(screen.getByLabelText(/Message when the format is wrong, in French/), {
      target: { value: 'Onze chiffres' },
    });
    expect(seen.design).toMatchObject({
      pattern: '^[0-9]{11}$',
      patternMessageEn: 'Eleven digits',
      patternMessageFr: 'Onze chiffres',
    });
    expect(screen.getByLabelText('Minimum length')).toBeTruthy();
    // Nothing of another kind is asked.
    expect(screen.queryByLabelText('Smallest value')).toBeNull();
    const { violations } = await axe.run(container);
    expect(violations.map((v) => v.id)).toEqual([]);
  });

  it('asks an enumeration for its values, each with a code and its names', () => {
    const seen: { design?: FormFieldDesign } = {};
    render(<Constraints start={design('enumeration')} seen={seen} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add a value' }));
    const first = screen.getByRole('group', { name: 'Value 1' });
    fireEvent.change(within(first).getByLabelText('Code'), { target: { value: 'AM' } });
    fireEvent.change(within(first).getByLabelText('Label in English'), {
      target: { value: 'Morning' },
    });
    fireEvent.change(within(first).getByLabelText('Label in French'), {
      target: { value: 'Matin' },
    });
    expect(seen.design?.options).toEqual([{ value: 'AM', labelEn: 'Morning', labelFr: 'Matin' }]);
    fireEvent.click(within(first).getByRole('button', { name: 'Remove Value 1' }));
    expect(seen.design?.options).toEqual([]);
  });

  it('asks a number for its bounds, and a document reference for its type', () => {
    const seen: { design?: FormFieldDesign } = {};
    const { unmount } = render(<Constraints start={design('number')} seen={seen} />);
    fireEvent.change(screen.getByLabelText('Largest value'), { target: { value: '9' } });
    fireEvent.click(screen.getByLabelText('Whole numbers only'));
    expect(seen.design).toMatchObject({ maximum: 9, integer: true });
    unmount();
    render(<Constraints start={design('documentReference')} seen={seen} />);
    expect(screen.getAllByLabelText(/Document type/).length).toBeGreaterThan(0);
    expect(screen.getAllByLabelText(/In the statuses/).length).toBeGreaterThan(0);
    expect(screen.queryByLabelText('Format (regular expression)')).toBeNull();
  });
});

const STATUS: DecidingField = {
  pointer: '/residence/status',
  name: 'status',
  schema: { type: 'string', enum: ['CITIZEN_OR_PR', 'OTHER'] },
};
const NOTE: DecidingField = {
  pointer: '/residence/note',
  name: 'note',
  schema: { type: 'string' },
};

function Condition(props: { seen: { condition?: FieldCondition } }) {
  const [condition, setCondition] = useState<FieldCondition | undefined>();
  props.seen.condition = condition;
  return (
    <MantineProvider>
      <FieldConditionInputs
        legend="Required when"
        placeholder="Never (optional)"
        fields={[STATUS, NOTE]}
        fieldLabel={(f) => f.name}
        valueLabel={(_, value) => (value === 'OTHER' ? 'Other' : value)}
        condition={condition}
        onChange={setCondition}
      />
    </MantineProvider>
  );
}

describe('a condition designed with choices', () => {
  it('is a field, an operator and a value chosen among the field’s own values', async () => {
    const seen: { condition?: FieldCondition } = {};
    render(<Condition seen={seen} />);
    const group = screen.getByRole('group', { name: 'Required when' });
    fireEvent.click(within(group).getByLabelText('Required when'));
    fireEvent.click(await screen.findByRole('option', { name: 'status' }));
    expect(seen.condition).toEqual({ field: '/residence/status', operator: 'filled', values: [] });
    fireEvent.click(within(group).getByLabelText('Condition'));
    fireEvent.click(await screen.findByRole('option', { name: 'is' }));
    fireEvent.click(within(group).getByLabelText('Value'));
    // The enumeration's values are offered by name, never typed.
    fireEvent.click(await screen.findByRole('option', { name: 'Other (OTHER)' }));
    expect(seen.condition).toEqual({
      field: '/residence/status',
      operator: 'equals',
      values: ['OTHER'],
    });
  });
});
