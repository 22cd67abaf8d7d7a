/**
 * The e-visa's addresses and its content as a web page: the QR code opens the public check
 * marked as scanned (`via=qr`), the printed address and the page's link as typed; the web page
 * gets the PDF's rows as values, lines and tables, in the certificate's language.
 */
import { describe, expect, it } from 'vitest';
import type { EntityDefinition } from '../../src/core/definitions/types';
import type { WorkflowCertificate, WorkflowDefinition } from '../../src/core/documents/workflow';
import type { Language, TextTree } from '../../src/core/i18n/translate';
import { certificateContent, type CatalogNames } from '../../src/server/documents/certificate';
import type { CertificateContent } from '../../src/server/documents/certificate-pdf';
import { certificateView } from '../../src/server/documents/certificate-view';
import { readProjectJson } from '../support/definitions-dir';
import { textsOf } from '../support/pdf-text';

type CertifiedWorkflow = WorkflowDefinition & { certificate: WorkflowCertificate };

const texts: Record<Language, TextTree> = { en: textsOf('en'), fr: textsOf('fr') };
const names: CatalogNames = async (_catalog, code) => ({ WS: 'Samoa' })[code];
const NUMBER = 'VA-2026-000042';

async function visaContent(language: Language) {
  const workflow = await readProjectJson<CertifiedWorkflow>('workflows/visa-application.json');
  const entity = await readProjectJson<EntityDefinition>('schemas/visa-application.schema.json');
  const document = {
    id: '6f1c7a8e-2f2b-4f0e-9a57-1d1a0c2b3e4f',
    number: NUMBER,
    status: 'ISSUED',
    data: {
      applicant: { familyName: 'Tuilagi', givenName: 'Sione', nationality: 'WS' },
      issuance: { effectiveDate: '2026-03-01', expiryDate: '2026-03-31' },
    },
  };
  const environment = { publicUrl: 'https://portal.example/', texts };
  return certificateContent({ workflow, entity, document, environment, language }, names);
}

describe('the e-visa as a web page', () => {
  it('has its QR code open the public check as a scan, its printed address as typed', async () => {
    const content = await visaContent('en');
    const typed = `https://portal.example/#/home?number=${NUMBER}`;
    expect(content.link).toEqual({ url: typed, opens: 'check', qr: `${typed}&via=qr` });
    const view = certificateView(content, texts, 'en');
    expect(view.checkUrl).toBe(typed);
    expect(view.checkText).toBe('Anyone may check this document at this address:');
  });

  it('is written in the certificate’s language, its rows as values', async () => {
    const view = certificateView(await visaContent('fr'), texts, 'fr');
    expect(view).toMatchObject({
      language: 'fr',
      issuer: "Service de l'immigration",
      title: 'Visa électronique',
      number: NUMBER,
    });
    const fields = view.sections.flatMap((section) => section.fields);
    expect(fields).toContainEqual({ label: 'Nationalité', value: 'Samoa' });
    expect(fields).toContainEqual({ label: "Date d'effet", value: '01/03/2026' });
  });

  it('gives an address its lines, a list its numbered items, a table its headings and cells', () => {
    const content: CertificateContent = {
      title: 'Electronic invoice',
      number: 'INV-1',
      sections: [
        {
          heading: 'Invoiced applications',
          fields: [
            { label: 'Address', values: ['1 Beach Road', 'Apia'], numbered: false },
            { label: 'Conditions', values: ['One', 'Two'] },
            {
              label: '',
              values: [],
              table: {
                columns: [
                  { heading: 'Number', alignRight: false },
                  { heading: 'Amount', alignRight: true },
                ],
                rows: [['VA-1', 'NZD 10.00']],
              },
            },
          ],
        },
      ],
      link: { url: 'https://portal.example/#/payment/invoice/view/1', opens: 'view' },
    };
    const view = certificateView(content, texts, 'en');
    expect(view.checkUrl).toBeNull();
    expect(view.sections[0]!.fields).toEqual([
      { label: 'Address', lines: ['1 Beach Road', 'Apia'] },
      { label: 'Conditions', lines: ['One', 'Two'], numbered: true },
      {
        label: '',
        table: {
          columns: ['Number', 'Amount'],
          rows: [['VA-1', 'NZD 10.00']],
          alignRight: [false, true],
        },
      },
    ]);
  });
});
