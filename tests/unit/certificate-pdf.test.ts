/**
 * The e-visa as its holder reads it: rendered from the real workflow, schema and translations,
 * read back as text by pdf.js, in English and in French.
 */
import { describe, expect, it } from 'vitest';
import type { EntityDefinition } from '../../src/core/definitions/types';
import type { WorkflowCertificate, WorkflowDefinition } from '../../src/core/documents/workflow';
import { lookup, type Language, type TextTree } from '../../src/core/i18n/translate';
import {
  certificateContent,
  type CatalogNames,
  type CertifiedDocument,
} from '../../src/server/documents/certificate';
import {
  CERTIFICATE_VALUE_X,
  renderCertificatePdf,
} from '../../src/server/documents/certificate-pdf';
import { readProjectJson } from '../support/definitions-dir';
import {
  assertReadablePdf,
  extractPdfText,
  readabilityProblems,
  textsOf,
} from '../support/pdf-text';

type CertifiedWorkflow = WorkflowDefinition & { certificate: WorkflowCertificate };

const texts: Record<Language, TextTree> = { en: textsOf('en'), fr: textsOf('fr') };

/** Catalogue entries as the database would give them. */
const CATALOG: Record<string, Record<string, string>> = {
  country: { WS: 'Samoa', NZ: 'New Zealand' },
  document: { VIS: 'Visitor visa' },
  'sub-document': { VV30: 'Visitor visa, 30 days' },
};
const names: CatalogNames = async (catalog, code) => CATALOG[catalog]?.[code];
/** Data printed as given: people's and places' names and catalogue entries. */
const NAMES = [
  'Tuilagi',
  'Sione Malietoa',
  'Port Town',
  ...Object.values(CATALOG).flatMap(Object.values),
  'Must leave before the expiry date.',
  'No employment.',
  'Report to the consulate on arrival.',
];

function issuedVisa(extra: Record<string, unknown> = {}): CertifiedDocument {
  return {
    id: '6f1c7a8e-2f2b-4f0e-9a57-1d1a0c2b3e4f',
    number: 'VA-2026-000042',
    status: 'DISPATCHED',
    data: {
      visa: { document: 'VIS', subDocument: 'VV30' },
      applicant: {
        familyName: 'Tuilagi',
        givenName: 'Sione Malietoa',
        birthDate: '1990-04-12',
        nationality: 'WS',
        passportNumber: 'PA1234567',
      },
      contact: { preferredLanguage: 'fr' },
      issuance: {
        entries: 'MULTIPLE',
        effectiveDate: '2026-03-01',
        expiryDate: '2026-03-31',
        placeOfIssue: 'Port Town',
      },
      conditions: {
        selected: [
          { code: 'C1', description: 'Must leave before the expiry date.' },
          { code: 'C2', description: 'No employment.' },
        ],
        additional: 'Report to the consulate on arrival.',
      },
      ...extra,
    },
  };
}

async function definitions() {
  const workflow = await readProjectJson<CertifiedWorkflow>('workflows/visa-application.json');
  const entity = await readProjectJson<EntityDefinition>('schemas/visa-application.schema.json');
  return { workflow, entity };
}

async function render(document: CertifiedDocument, language: Language) {
  const { workflow, entity } = await definitions();
  const environment = { publicUrl: 'https://portal.example', texts };
  const content = await certificateContent(
    { workflow, entity, document, environment, language },
    names,
  );
  const bytes = await renderCertificatePdf(content, texts, language);
  return { content, pdf: await extractPdfText(bytes), bytes };
}

/** Every label the workflow's certificate prints, in a language, as the translations give it. */
async function certificateLabels(language: Language): Promise<string[]> {
  const { workflow } = await definitions();
  return workflow.certificate.fields.map((field) => {
    const text = lookup(texts[language], field.label);
    expect(text, `${field.label} in ${language}`).toBeTypeOf('string');
    return text!;
  });
}

// pdf.js loads once per file, slowly on a loaded machine.
describe('the e-visa PDF', { timeout: 30_000 }, () => {
  it('names every certificate text in English and French', async () => {
    const { workflow } = await definitions();
    const keys = [
      workflow.certificate.title,
      ...workflow.certificate.fields.flatMap((f) => [f.label, f.section, f.empty]),
    ].filter((key): key is string => key !== undefined);
    for (const language of ['en', 'fr'] as const) {
      for (const key of keys) expect(lookup(texts[language], key), key).toBeTypeOf('string');
    }
  });

  it('reads in English: labelled holder, visa, validity and conditions, values as words', async () => {
    const { pdf } = await render(issuedVisa(), 'en');
    assertReadablePdf(pdf, {
      language: 'en',
      labels: await certificateLabels('en'),
      valueX: CERTIFICATE_VALUE_X,
      names: NAMES,
    });
    expect(pdf.title).toBe('Electronic visa VA-2026-000042');
    expect(pdf.language).toBe('en');
    const lines = pdf.lines.map((line) => line.text);
    for (const expected of [
      'Immigration Service',
      'Electronic visa',
      'Number: VA-2026-000042',
      'Holder',
      'Family name\tTuilagi',
      'Given name\tSione Malietoa',
      'Date of birth\t12/04/1990',
      'Nationality\tSamoa',
      'Passport number\tPA1234567',
      'Visa',
      'Document\tVisitor visa',
      'Type and duration\tVisitor visa, 30 days',
      'Number of entries\tMultiple entries',
      'Validity',
      'Effective date\t01/03/2026',
      'Expiry date\t31/03/2026',
      'Place of issue\tPort Town',
      'Conditions',
      'Conditions of this visa\t1. Must leave before the expiry date.',
      '2. No employment.',
      'Additional conditions\tReport to the consulate on arrival.',
      // The visa has a public check: the QR code and the address open it.
      'Scan the code or open this address to check the document:',
      'https://portal.example/#/home?number=VA-2026-000042',
      'This document was issued electronically and needs no signature.\tPage 1 of 1',
    ]) {
      expect(lines, expected).toContain(expected);
    }
    // No code shown raw, nothing cut.
    expect(pdf.text).not.toMatch(/\bWS\b|\bVV30\b|MULTIPLE|…/);
    expect(pdf.text).toContain('Keep this document with your passport');
    expect(pdf.text).not.toMatch(/\/view\/|signed in/);
  });

  it('reads in French, labels and values in French', async () => {
    const { pdf } = await render(issuedVisa(), 'fr');
    assertReadablePdf(pdf, {
      language: 'fr',
      labels: await certificateLabels('fr'),
      valueX: CERTIFICATE_VALUE_X,
      names: NAMES,
    });
    expect(pdf.title).toBe('Visa électronique VA-2026-000042');
    expect(pdf.language).toBe('fr');
    const lines = pdf.lines.map((line) => line.text);
    for (const expected of [
      "Service de l'immigration",
      'Visa électronique',
      'Numéro : VA-2026-000042',
      'Titulaire',
      'Nom de famille\tTuilagi',
      'Date de naissance\t12/04/1990',
      "Nombre d'entrées\tEntrées multiples",
      'Validité',
      "Date d'expiration\t31/03/2026",
      'Page 1 sur 1',
    ]) {
      expect(
        lines.some((line) => line.includes(expected)),
        expected,
      ).toBe(true);
    }
  });

  it('says there are no conditions, and leaves off what the officer did not state', async () => {
    const document = issuedVisa({
      conditions: { selected: [] },
      issuance: { effectiveDate: '2026-03-01', expiryDate: '2026-03-31', placeOfIssue: 'Port' },
    });
    for (const language of ['en', 'fr'] as const) {
      const { pdf } = await render(document, language);
      assertReadablePdf(pdf, { language, valueX: CERTIFICATE_VALUE_X, names: [...NAMES, 'Port'] });
      const none =
        language === 'en' ? 'Conditions of this visa\tNone' : 'Conditions de ce visa\tAucune';
      expect(pdf.lines.map((line) => line.text)).toContain(none);
      expect(pdf.text).not.toMatch(/Number of entries|Nombre d'entrées|Additional|supplémentaires/);
    }
  });

  it('continues long conditions on a second page, every value beside its label', async () => {
    const selected = Array.from({ length: 12 }, (_, i) => ({
      code: `C${i}`,
      description: `Condition ${i + 1}: ${'Stay within the region named on the visa. '.repeat(6)}`,
    }));
    const { pdf } = await render(issuedVisa({ conditions: { selected } }), 'en');
    expect(pdf.pageCount).toBeGreaterThan(1);
    assertReadablePdf(pdf, {
      language: 'en',
      valueX: CERTIFICATE_VALUE_X,
      names: [...NAMES, ...selected.map((c) => c.description)],
    });
    expect(pdf.text).toContain(`Page 2 of ${pdf.pageCount}`);
    expect(
      pdf.lines.filter((line) => line.text.startsWith('Conditions of this visa\t')),
    ).toHaveLength(pdf.pageCount);
  });

  it('would fail on the labels it used to print: raw, cut translation keys', async () => {
    const { content } = await render(issuedVisa(), 'en');
    const broken = {
      ...content,
      sections: [
        {
          heading: undefined,
          fields: [
            { label: 'visa-application.applicant.familyN…', values: ['Tuilagi'] },
            { label: 'Number of entries', values: ['-'] },
            { label: 'Type and duration', values: ['MULTIPLE'] },
          ],
        },
      ],
    };
    const pdf = await extractPdfText(await renderCertificatePdf(broken, texts, 'en'));
    const problems = readabilityProblems(pdf, {
      language: 'en',
      labels: ['Family name', 'Number of entries'],
      valueX: CERTIFICATE_VALUE_X,
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('translation key "visa-application.applicant.familyN…"'),
        'label "Family name" is missing',
        'label "Number of entries" has no value (page 1)',
        expect.stringContaining('raw code "MULTIPLE"'),
      ]),
    );
    // English labels in a French document are caught too.
    const english = await extractPdfText(await renderCertificatePdf(content, texts, 'fr'));
    expect(readabilityProblems(english, { language: 'fr', names: NAMES })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^English word "(family|given|birth)"/)]),
    );
  });
});
