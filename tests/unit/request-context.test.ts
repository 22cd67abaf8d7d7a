import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  logMixin,
  requestIdOf,
  withRequestContext,
} from '../../src/server/observability/request-context';

function rawRequest(headers: Record<string, string> = {}) {
  const request = new IncomingMessage(new Socket());
  request.headers = headers;
  return { request, response: new ServerResponse(request) };
}

describe('request context', () => {
  it("names the request in the lines of a logger that is not the request's own", async () => {
    const lines: Record<string, unknown>[] = [];
    const shared = pino(
      { mixin: logMixin },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    const { request, response } = rawRequest({ 'x-request-id': 'case-7' });
    await new Promise<void>((resolve) =>
      withRequestContext(request, response, undefined, () => {
        // Written later, from a continuation of the request: the id follows it.
        setTimeout(() => {
          shared.info('a shared service at work');
          resolve();
        }, 0);
      }),
    );
    shared.info('outside any request');
    expect(lines.map((line) => [line.msg, line.reqId])).toEqual([
      ['a shared service at work', 'case-7'],
      ['outside any request', undefined],
    ]);
    expect(requestIdOf(request)).toBe('case-7');
  });

  it('does not name the request twice in a logger bound to it', () => {
    const lines: string[] = [];
    const root = pino({ mixin: logMixin }, { write: (line: string) => lines.push(line) });
    const { request, response } = rawRequest();
    withRequestContext(request, response, undefined, () => {
      root.child({ reqId: requestIdOf(request) }).info('bound');
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.match(/"reqId"/g)).toHaveLength(1);
    expect(JSON.parse(lines[0]!).reqId).toBe(requestIdOf(request));
  });
});
