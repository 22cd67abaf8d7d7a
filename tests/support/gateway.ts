import { expect } from 'vitest';
import type { ApiHarness } from './api-server';

/**
 * Pays a document the way its payer does once it is initiated: the purchase, the sandbox
 * gateway's page filled with a card that is approved, and the gateway's signed report back.
 */
export async function payOnGateway(
  api: ApiHarness,
  type: string,
  id: string,
  token: string,
  cardName = 'Card Holder',
): Promise<void> {
  const purchase = await api.call('POST', `/api/payments/${type}/${id}/purchase`, { token });
  expect(purchase.statusCode, purchase.body).toBe(200);
  const page = new URL((purchase.json() as { redirectUrl: string }).redirectUrl).pathname;
  const paid = await api.app.inject({
    method: 'POST',
    url: page,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      cardNumber: '4111111111111111',
      cardName,
      expiry: '12/39',
      cvc: '123',
    }).toString(),
  });
  expect(paid.statusCode, paid.body).toBe(303);
}
