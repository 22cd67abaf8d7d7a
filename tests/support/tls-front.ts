/**
 * The load balancer in front of the portal, as docs/deployment.md deploys it: TLS ends here and
 * browsers speak HTTP/2 to it (every browser negotiates HTTP/2 over TLS, and none speaks it over
 * plain HTTP); each request goes on to the portal's process over HTTP/1.1 on loopback, with
 * `X-Forwarded-Proto: https` and `X-Forwarded-For`, which the portal trusts from loopback
 * (TRUST_PROXY's default). Its certificate is made for the run by `openssl` (self-signed, for
 * `localhost`); Chromium is told to trust that one key by its SPKI hash
 * (`--ignore-certificate-errors-spki-list`), so the page is a secure page, as in production.
 *
 * For the tests of the deployed set-up (tests/e2e/deployed-behind-tls.test.ts) and for
 * `npm run bench:lighthouse`; a production deployment uses its own load balancer.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';

export interface TlsFront {
  /** The address browsers use: `https://localhost:<port>`. */
  url: string;
  port: number;
  /** The base64 SHA-256 of the certificate's public key, for Chromium's SPKI list. */
  spkiHash: string;
  close(): Promise<void>;
}

/** Headers HTTP/2 forbids in a response (RFC 9113, 8.2.2). */
const CONNECTION_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);

function selfSignedCertificate(): { key: Buffer; cert: Buffer; spkiHash: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-tls-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: 'ignore' },
    );
    const publicKeyDer = execFileSync('openssl', ['x509', '-in', certFile, '-noout', '-pubkey']);
    const der = execFileSync('openssl', ['pkey', '-pubin', '-outform', 'der'], {
      input: publicKeyDer,
    });
    const spkiHash = execFileSync('openssl', ['dgst', '-sha256', '-binary'], { input: der })
      .toString('base64')
      .trim();
    return { key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile), spkiHash };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts the front on a free port of loopback, passing every request to `backendPort`. */
export async function startTlsFront(backendPort: number, port: number): Promise<TlsFront> {
  const { key, cert, spkiHash } = selfSignedCertificate();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http2.createSecureServer({ key, cert, allowHTTP1: true }, (request, response) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (name.startsWith(':') || CONNECTION_HEADERS.has(name) || value === undefined) continue;
      headers[name] = value;
    }
    headers.host = request.headers[':authority'] ?? request.headers.host ?? `localhost:${port}`;
    headers['x-forwarded-proto'] = 'https';
    headers['x-forwarded-for'] = request.socket.remoteAddress ?? '127.0.0.1';
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: backendPort,
        method: request.method,
        path: request.url,
        headers,
        agent,
      },
      (answer) => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (!CONNECTION_HEADERS.has(name) && value !== undefined) out[name] = value;
        }
        response.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `https://localhost:${port}`,
    port,
    spkiHash,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        // Open HTTP/2 sessions (Chromium's) would keep close() waiting.
        server.unref();
        setTimeout(resolve, 1000).unref();
      }),
  };
}
