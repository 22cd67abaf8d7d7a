import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { multipartFile } from '../support/multipart';

const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(200, 32),
  Buffer.from('\n%%EOF\n'),
]);

describe('media uploads', () => {
  let api: ApiHarness;
  let token: string;
  beforeAll(async () => {
    api = await startApiServer('pglite', { mediaMaxBytes: 1024 });
    token = await api.tokenFor(['visa-application-submit'], { sub: 'uploader' });
  });
  afterAll(async () => api?.close());

  const upload = (
    name: string,
    type: string,
    content: Buffer,
    bearer: string | undefined = token,
  ) => {
    const { body, contentType } = multipartFile(name, type, content);
    return api.app.inject({
      method: 'POST',
      url: '/api/media',
      headers: {
        'content-type': contentType,
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      payload: body,
    });
  };
  const count = async () =>
    (
      await api.server.database.db
        .selectFrom('media')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  it('keeps a PDF and answers a reference, which its owner can read back', async () => {
    const response = await upload('passport scan.pdf', 'application/pdf', PDF);
    expect(response.statusCode, response.body).toBe(201);
    const reference = response.json();
    expect(reference).toMatchObject({
      name: 'passport scan.pdf',
      size: PDF.length,
      type: 'application/pdf',
    });
    const read = await api.call('GET', `/api/media/${reference.id}`, { token });
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.equals(PDF)).toBe(true);
    const other = await api.tokenFor(['visa-application-submit'], { sub: 'someone-else' });
    expect((await api.call('GET', `/api/media/${reference.id}`, { token: other })).statusCode).toBe(
      404,
    );
  });

  it('gives the file back under its own name, in any script, and never for a shared cache', async () => {
    const response = await upload('паспорт (1).pdf', 'application/pdf', PDF);
    expect(response.statusCode, response.body).toBe(201);
    const read = await api.call('GET', `/api/media/${response.json().id}`, { token });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('application/pdf');
    expect(read.headers['cache-control']).toBe('private, no-store');
    expect(read.headers['content-disposition']).toBe(
      `attachment; filename="_______ (1).pdf"; filename*=UTF-8''%D0%BF%D0%B0%D1%81%D0%BF%D0%BE%D1%80%D1%82%20%281%29.pdf`,
    );
  });

  it('refuses a file over the limit with 413, a wrongly typed file with 400, and signed-out callers', async () => {
    const before = await count();
    const large = await upload(
      'big.pdf',
      'application/pdf',
      Buffer.concat([PDF, Buffer.alloc(2048)]),
    );
    expect(large.statusCode).toBe(413);
    const renamed = await upload(
      'virus.pdf',
      'application/pdf',
      Buffer.from('MZ\x90\x00 not a pdf'),
    );
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().error.fields[0]).toMatchObject({ path: '/file', rule: 'fileType' });
    const script = await upload('page.html', 'text/html', Buffer.from('<script>alert(1)</script>'));
    expect(script.statusCode).toBe(400);
    expect((await upload('x.pdf', 'application/pdf', PDF, '')).statusCode).toBe(401);
    expect(await count()).toBe(before);
  });
});
