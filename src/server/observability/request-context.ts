import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestSpan, Tracing } from './tracing';

/** What every log line written while a request is handled says of it, and its trace. */
export interface RequestContext {
  requestId: string;
  /** The request's span when tracing is on: the statements it makes are its children. */
  trace?: RequestSpan;
}

const storage = new AsyncLocalStorage<RequestContext>();
const REQUEST_ID = Symbol('requestId');

/** The header a proxy or a client names a request by; answered with the same name. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** A caller's id is kept when it is short and printable, else one of ours is made. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const CONTEXT = Symbol('requestContext');

type TaggedRequest = IncomingMessage & { [REQUEST_ID]?: string; [CONTEXT]?: RequestContext };

/**
 * Runs the handling of a raw request with its id known to everything it calls: the log lines
 * of shared services (`app.log`), not only those of `request.log`, carry it (`logMixin`). With
 * tracing on, the request gets a span, ended by the app with its route (`contextOf`), or here
 * when the connection closes before an answer.
 */
export function withRequestContext(
  request: IncomingMessage,
  response: ServerResponse,
  tracing: Tracing | undefined,
  handle: () => void,
): void {
  const given = request.headers[REQUEST_ID_HEADER];
  const requestId = typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
  const context: RequestContext = { requestId };
  if (tracing) {
    const started = tracing.startRequest(
      request.method ?? 'GET',
      request.url ?? '/',
      request.headers,
    );
    let ended = false;
    context.trace = {
      span: started.span,
      answered(route, statusCode) {
        if (ended) return;
        ended = true;
        started.answered(route, statusCode);
      },
    };
    response.once('close', () =>
      context.trace?.answered((request.url ?? '/').split('?')[0]!, response.statusCode),
    );
  }
  const tagged = request as TaggedRequest;
  tagged[REQUEST_ID] = requestId;
  tagged[CONTEXT] = context;
  storage.run(context, handle);
}

/** The context `withRequestContext` gave a raw request. */
export function contextOf(request: IncomingMessage): RequestContext | undefined {
  return (request as TaggedRequest)[CONTEXT];
}

/** Fastify's `genReqId`: the id `withRequestContext` gave the request, else a new one. */
export function requestIdOf(request: IncomingMessage): string {
  return (request as TaggedRequest)[REQUEST_ID] ?? randomUUID();
}

/** The request being handled here, if any. */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/**
 * Pino's `mixin`: a line written while a request is handled names it as `reqId`, unless the
 * logger already binds it (Fastify's `request.log` does).
 */
export function logMixin(
  _merge: object,
  _level: number,
  logger?: { bindings(): Record<string, unknown> },
): Record<string, string> {
  const context = storage.getStore();
  if (!context || logger?.bindings().reqId !== undefined) return {};
  return { reqId: context.requestId };
}
