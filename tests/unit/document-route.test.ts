import { describe, expect, it } from 'vitest';
import { documentParam, documentRoute } from '../../src/core/documents/document-route';

const account = {
  prefix: '/connectid/accounts',
  key: { pointer: '/identity/loginIdentifier', keptWhenDeleted: true },
};

describe('the route of a document', () => {
  it('names a document by id, or by its key where the path says so', () => {
    expect(documentParam('/view/:id')).toBe('id');
    expect(documentParam('/version/:loginIdentifier/:ver')).toBe('loginIdentifier');
    expect(documentParam('/new')).toBeUndefined();
    const document = { id: 'a1', data: { identity: { loginIdentifier: 'ana.tui' } } };
    expect(documentRoute(account, '/view/:loginIdentifier', document)).toBe(
      '/connectid/accounts/view/ana.tui',
    );
    expect(documentRoute(account, '/profile/:id', document)).toBe('/connectid/accounts/profile/a1');
    expect(documentRoute(account, '/version/:loginIdentifier/:ver', { id: 'a1', key: 'b@x' })).toBe(
      '/connectid/accounts/version/b%40x/:ver',
    );
  });

  it('falls back to the id when the key is not known, which the server answers too', () => {
    expect(documentRoute(account, '/view/:loginIdentifier', { id: 'a1' })).toBe(
      '/connectid/accounts/view/a1',
    );
  });
});
