import type { ApiHarness } from '../support/api-server';
import { describeGeneratedWalk } from '../support/generated-walk';
import { multipartFile } from '../support/multipart';
import { invoiceData, submittedVisa } from '../support/submitted-applications';

/**
 * The payment invoice's machine (workflows/payment-invoice.json), generated: every status
 * reached, every action tried in every status with every role and none. Each invoice names an
 * application of its own, submitted by the walk's owner for it, since an application belongs
 * to one open invoice at a time.
 */
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(200, 32),
  Buffer.from('%%EOF\n'),
]);

/**
 * An upload of the walk's owner, in the database of the walk under way (the walk runs on each
 * database in turn): the payment advice each submission and reply attaches.
 */
let advice: Record<string, unknown> | undefined;
let adviceServer: ApiHarness | undefined;

/** The API as the walk's owner, for what the invoices name and attach. */
function asOwner(api: ApiHarness, owner: string) {
  const token = () =>
    api.issuer.token({
      sub: owner,
      name: 'Walker',
      groups: ['visa-application-submit', 'visa-application-read'],
    });
  return {
    async send(method: 'GET' | 'POST', path: string, _token: string, body?: unknown) {
      const response = await api.call(method, path, { token: await token(), body });
      if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.body}`);
      return response.json() as unknown;
    },
    async uploadPdf() {
      const { body, contentType } = multipartFile('advice.pdf', 'application/pdf', PDF);
      const response = await api.app.inject({
        method: 'POST',
        url: '/api/media',
        headers: { authorization: `Bearer ${await token()}`, 'content-type': contentType },
        payload: body,
      });
      if (response.statusCode !== 201) throw new Error(`upload: ${response.body}`);
      return response.json() as Record<string, unknown>;
    },
  };
}

describeGeneratedWalk({
  type: 'payment-invoice',
  dataVariants: [invoiceData(['VSA-2000-000001'])],
  async freshData(api, owner) {
    const applications = asOwner(api, owner);
    const visa = await submittedVisa(applications, '');
    if (adviceServer !== api) {
      advice = await applications.uploadPdf();
      adviceServer = api;
    }
    return invoiceData([visa.number]);
  },
  // `data` is the invoice as it stands (the walk's `freshData` documents are read back).
  payloadFor(action, data) {
    switch (action) {
      case 'upload':
      case 'reply':
        return { data: { payment: { advice } } };
      case 'query':
        return { notes: 'Generated test notes', data: {} };
      case 'verify': {
        // The officer records what the bank received: the total due, to the cent.
        const due = (data as { summary?: { totalAmountToPay?: string } }).summary?.totalAmountToPay;
        return { data: { verification: { amountReceived: due, bankReference: 'BT-WALK' } } };
      }
      default:
        return { data };
    }
  },
  minimumCases: 250,
});
