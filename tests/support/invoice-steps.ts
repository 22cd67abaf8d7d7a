import { expect } from 'vitest';
import type { ApiHarness } from './api-server';
import { multipartFile } from './multipart';
import { invoiceData } from './submitted-applications';

const INVOICES = '/api/evisa/payment-invoice';
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(200, 32),
  Buffer.from('%%EOF\n'),
]);

/**
 * The bank account invoices are paid to (their workflow's `fromCatalog`): a walk without the
 * reference data makes it, or no invoice can be created.
 */
export const BANK_ACCOUNT = [
  'bank-account',
  {
    code: 'FEES',
    payee: 'Immigration Service',
    bank: 'Bank of the Island',
    accountNumber: '02-0100-0123456-00',
    paymentTermDays: 14,
  },
] as const;

/** A document as the walks hold it. */
interface Walked {
  id: string;
  version: number;
  status: string;
}

/**
 * The system actions a payment invoice fires on the applications it names (include, release,
 * settle), taken the way they happen: a payer (the applications' owner, `owner`) creates an
 * invoice naming the application, deletes it, or submits its payment advice for an officer to
 * verify. Used by the generated walks of the payable workflows.
 */
export function invoiceSteps(api: ApiHarness, owner: string) {
  const invoices = new Map<string, { id: string; version: number }>();
  const token = (groups: string[], sub = owner) => api.issuer.token({ sub, name: 'Payer', groups });
  const payerRoles = ['create', 'delete', 'upload', 'read'].map((r) => `payment-invoice-${r}`);

  const ok = async (
    method: 'GET' | 'POST',
    url: string,
    who: string,
    body?: unknown,
  ): Promise<{ id: string; version: number; status: string; number: string }> => {
    const response = await api.call(method, url, { token: who, body });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };

  return async (type: string, doc: Walked, action: string): Promise<unknown> => {
    const payer = await token(payerRoles);
    const url = `/api/evisa/${type}/${doc.id}`;
    if (action === 'include') {
      const { number } = await ok('GET', url, await token([`${type}-read`]));
      const invoice = await ok('POST', INVOICES, payer, {
        action: 'create',
        data: invoiceData([number]),
      });
      invoices.set(doc.id, invoice);
    } else {
      const invoice = invoices.get(doc.id);
      if (!invoice) throw new Error(`${action}: no invoice names ${doc.id}`);
      if (action === 'release') {
        await ok('POST', `${INVOICES}/${invoice.id}/actions/delete`, payer, {
          version: invoice.version,
        });
      } else if (action === 'settle') {
        const { body, contentType } = multipartFile('advice.pdf', 'application/pdf', PDF);
        const media = await api.app.inject({
          method: 'POST',
          url: '/api/media',
          headers: { authorization: `Bearer ${payer}`, 'content-type': contentType },
          payload: body,
        });
        const submitted = await ok('POST', `${INVOICES}/${invoice.id}/actions/upload`, payer, {
          version: invoice.version,
          data: { payment: { advice: media.json() } },
        });
        const officer = await token(['payment-invoice-verify'], 'officer-invoices');
        // The officer records what the bank received: the total due, to the cent.
        const { data } = submitted as unknown as { data: { summary: Record<string, string> } };
        await ok('POST', `${INVOICES}/${invoice.id}/actions/verify`, officer, {
          version: submitted.version,
          data: {
            verification: {
              amountReceived: data.summary.totalAmountToPay,
              bankReference: 'BT-STEP',
            },
          },
        });
      } else {
        throw new Error(`No invoice step fires ${action}`);
      }
      invoices.delete(doc.id);
    }
    return (await api.call('GET', url, { token: await token([`${type}-read`]) })).json();
  };
}
