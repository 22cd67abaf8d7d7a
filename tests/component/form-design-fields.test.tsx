// The form designer's parts as the analyst meets them: each kind asks for its own constraints
// (a pattern with its message in both languages, an enumeration's values with their names, a
// document reference's type and statuses), and a condition is chosen as field, operator, value,
// among the field's own values when it has them; nothing is typed as JSON. A field already there
// is changed with the same form, in place.
import { useState } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import axe from 'axe-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDefinition } from '../../src/core/definitions/types';
import type {
  DecidingField,
  FieldCondition,
  FormFieldDesign,
  FormFiles,
} from '../../src/core/studio/schema-design';
import { FieldConditionInputs } from '../../src/portal/pages/studio/FieldCondition';
import { FieldConstraints } from '../../src/portal/pages/studio/FieldConstraints';
import { SectionFields } from '../../src/portal/pages/studio/SchemaDesigner';
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

/** A small form: a person's family and given names, the first shown as a list's column. */
const PERSON: FormFiles = {
  entity: {
    id: 'visit',
    schema: {
      type: 'object',
      properties: {
        person: {
          type: 'object',
          additionalProperties: false,
          properties: {
            familyName: { type: 'string', maxLength: 100 },
            givenName: { type: 'string', minLength: 1, maxLength: 100 },
          },
          required: ['givenName'],
        },
      },
    },
    uiSchema: { person: { 'ui:order': ['familyName', 'givenName'] } },
  },
  en: { person: { _: 'Person', familyName: 'Family name', givenName: 'Given name' } },
  fr: { person: { _: 'Personne', familyName: 'Nom de famille', givenName: 'Prénom' } },
  shared: { en: {}, fr: {} },
};

/** The section's fields over files the test reads back after each change (the draft's). */
function Fields(props: { seen: { files?: FormFiles; changes: number } }) {
  const [files, setFiles] = useState(PERSON);
  props.seen.files = files;
  return (
    <MantineProvider>
      <SectionFields
        files={files}
        draft={{ paths: [], file: () => undefined }}
        documentTypes={[]}
        section="person"
        onSection={() => undefined}
        onChange={(next) => {
          props.seen.changes++;
          setFiles(next);
        }}
      />
    </MantineProvider>
  );
}

describe('changing a field already there', () => {
  it('opens the field as it is, and applies its new label, length and requirement in place', async () => {
    const seen: { files?: FormFiles; changes: number } = { changes: 0 };
    render(<Fields seen={seen} />);
    fireEvent.click(screen.getByRole('button', { name: 'Change Family name' }));
    const dialog = await screen.findByRole('dialog');
    // The section and name are shown, not changed; the rest is the field as it is.
    expect((within(dialog).getByLabelText(/Field name/) as HTMLInputElement).readOnly).toBe(true);
    expect((within(dialog).getByLabelText(/Label in English/) as HTMLInputElement).value).toBe(
      'Family name',
    );
    expect((within(dialog).getByLabelText('Maximum length') as HTMLInputElement).value).toBe('100');
    const { violations } = await axe.run(dialog);
    expect(violations.map((v) => v.id)).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText(/Label in English/), {
      target: { value: 'Surname' },
    });
    fireEvent.change(within(dialog).getByLabelText('Maximum length'), {
      target: { value: '40' },
    });
    fireEvent.click(within(dialog).getByLabelText('Required'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply the change' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(seen.changes).toBe(1);
    const person = (
      seen.files!.entity.schema as { properties: { person: Record<string, unknown> } }
    ).properties.person;
    expect(person.properties).toEqual({
      familyName: { type: 'string', minLength: 1, maxLength: 40 },
      givenName: { type: 'string', minLength: 1, maxLength: 100 },
    });
    // In place: first in the schema and the order, as it was; then required too.
    expect(Object.keys(person.properties as object)).toEqual(['familyName', 'givenName']);
    expect(person.required).toEqual(['givenName', 'familyName']);
    expect(seen.files!.entity.uiSchema).toEqual(PERSON.entity.uiSchema);
    expect(seen.files!.en.person).toEqual({
      _: 'Person',
      familyName: 'Surname',
      givenName: 'Given name',
    });
    expect(seen.files!.fr).toEqual(PERSON.fr);
    expect(screen.getByRole('button', { name: 'Change Surname' })).toBeTruthy();
  });

  it('changes nothing when cancelled', async () => {
    const seen: { files?: FormFiles; changes: number } = { changes: 0 };
    render(<Fields seen={seen} />);
    fireEvent.click(screen.getByRole('button', { name: 'Change Given name' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Label in English/), {
      target: { value: 'First name' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(seen.changes).toBe(0);
    expect(seen.files).toEqual(PERSON);
  });

  it('warns that a change of type may need a data move', async () => {
    render(<Fields seen={{ changes: 0 }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Change Family name' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByText(/dataMoves/)).toBeNull();
    fireEvent.click(within(dialog).getByLabelText('Type'));
    fireEvent.click(await screen.findByRole('option', { name: 'Long text', hidden: true }));
    expect(within(dialog).getByText(/dataMoves/)).toBeTruthy();
  });
});
