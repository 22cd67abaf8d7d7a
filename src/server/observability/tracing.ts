import type { IncomingHttpHeaders } from 'node:http';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

/** Where traces go: an OTLP/HTTP collector. Unset, no span is made and nothing is loaded. */
export interface TracingConfig {
  /** The collector's traces address (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, or `.../v1/traces`). */
  endpoint?: string;
  serviceName: string;
}

/** A request's span, ended when its answer is sent. */
export interface RequestSpan {
  /** Names the span by the route that answered (`GET /api/evisa/{type}/{id}`). */
  answered(route: string, statusCode: number): void;
  readonly span: Span;
}

/**
 * Traces of HTTP requests, database statements and the outbox's deliveries, sent to an
 * OpenTelemetry collector (docs/deployment.md). Spans are made by hand at three seams (the raw
 * request, the query hook, the delivery) rather than by auto-instrumentation, which patches
 * `require` and cannot see into the bundled server.
 */
export class Tracing {
  private constructor(
    private readonly tracer: Tracer,
    private readonly shutdownProvider: () => Promise<void>,
    private readonly extract: (headers: IncomingHttpHeaders) => Context,
  ) {}

  /** Tracing as configured, or undefined when no collector is named. */
  static async start(config: TracingConfig): Promise<Tracing | undefined> {
    if (!config.endpoint) return undefined;
    const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources, core] =
      await Promise.all([
        import('@opentelemetry/sdk-trace-base'),
        import('@opentelemetry/exporter-trace-otlp-http'),
        import('@opentelemetry/resources'),
        import('@opentelemetry/core'),
      ]);
    const provider = new BasicTracerProvider({
      resource: resources.resourceFromAttributes({ 'service.name': config.serviceName }),
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: config.endpoint }))],
    });
    const propagator = new core.W3CTraceContextPropagator();
    return new Tracing(
      provider.getTracer('immigration-portal'),
      () => provider.shutdown(),
      (headers) => propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter),
    );
  }

  /** Starts a request's span, a child of the caller's trace when it sent `traceparent`. */
  startRequest(method: string, url: string, headers: IncomingHttpHeaders): RequestSpan {
    const span = this.tracer.startSpan(
      `${method} ${url.split('?')[0]}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': method, 'url.path': url.split('?')[0] },
      },
      this.extract(headers),
    );
    return {
      span,
      answered(route, statusCode) {
        span.updateName(`${method} ${route}`);
        span.setAttributes({ 'http.route': route, 'http.response.status_code': statusCode });
        if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      },
    };
  }

  /** A statement that ended, as a child of the request it served (if any). */
  query(
    statement: { sql: string; durationMs: number; failed: boolean; system: string },
    parent: Span | undefined,
  ): void {
    const end = Date.now();
    const span = this.tracer.startSpan(
      `db ${statement.sql.trimStart().split(/\s/, 1)[0]?.toLowerCase() ?? ''}`,
      {
        kind: SpanKind.CLIENT,
        startTime: end - statement.durationMs,
        attributes: { 'db.system': statement.system, 'db.query.text': statement.sql },
      },
      parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT,
    );
    if (statement.failed) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(end);
  }

  /** Runs a delivery of the outbox in a span of its own. */
  async delivery<T>(attributes: Record<string, string>, run: () => Promise<T>): Promise<T> {
    const span = this.tracer.startSpan('outbox deliver', {
      kind: SpanKind.PRODUCER,
      attributes,
    });
    try {
      return await run();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
      throw error;
    } finally {
      span.end();
    }
  }

  /** Sends the spans still held, then stops. */
  shutdown(): Promise<void> {
    return this.shutdownProvider();
  }
}
