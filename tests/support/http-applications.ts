import { multipartFile } from './multipart';
import type { ApplicationsApi } from './submitted-applications';

const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(400, 32),
  Buffer.from('%%EOF\n'),
]);

/** The steps of tests/support/submitted-applications.ts against a running portal, over HTTP. */
export function applicationsOverHttp(portalUrl: string): ApplicationsApi {
  return {
    async send(method, apiPath, bearer, body) {
      const response = await fetch(`${portalUrl}${apiPath}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${apiPath}: ${await response.text()}`);
      return response.json();
    },
    async uploadPdf(bearer) {
      const { body, contentType } = multipartFile('passport.pdf', 'application/pdf', PDF);
      const response = await fetch(`${portalUrl}/api/media`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': contentType },
        body,
      });
      if (!response.ok) throw new Error(`upload: ${await response.text()}`);
      return (await response.json()) as Record<string, unknown>;
    },
  };
}

/**
 * The sandbox gateway's page filled with a card that is approved, as a payer does once the
 * purchase gave its address (`redirectUrl`); the gateway's report pays the document before the
 * page redirects.
 */
export async function payOnGatewayPage(redirectUrl: string, cardName: string): Promise<void> {
  const paid = await fetch(redirectUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      cardNumber: '4111111111111111',
      cardName,
      expiry: '12/39',
      cvc: '123',
    }).toString(),
  });
  if (paid.status !== 303) throw new Error(`the gateway answered ${paid.status}`);
}

/**
 * Pays a document of `type` as `token`'s holder over HTTP, as they do once it is initiated: the
 * purchase, then the gateway's page filled with an approved card in `cardName`.
 */
export function payOverHttp(
  api: ApplicationsApi,
  token: string,
  cardName: string,
  type = 'visa-application',
): (id: string) => Promise<void> {
  return async (id) => {
    const purchase = (await api.send('POST', `/api/payments/${type}/${id}/purchase`, token)) as {
      redirectUrl: string;
    };
    await payOnGatewayPage(purchase.redirectUrl, cardName);
  };
}
