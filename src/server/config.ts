import { randomBytes } from 'node:crypto';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../core/identity/declared-checks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder of the project checkout, used for defaults that point at its own files. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface AuthConfig {
  /** The token issuer: our identity realm, or a Keycloak realm that replaces it. */
  issuer: string;
  audience: string;
  /** Where the issuer's public keys come from: a JWKS address, or a JWKS document on disk. */
  jwksUrl?: string;
  jwksFile?: string;
}

/** The server's settings, as configFromEnv reads them. */
export type ServerConfig = ReturnType<typeof configFromEnv>;

/** Every environment variable the server reads, with its default (README's configuration table). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const port = integer(env.PORT, 8080);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${port}`;
  const realm = env.IDENTITY_REALM ?? 'portal';
  const issuer = env.OIDC_ISSUER ?? `${publicUrl}/realms/${realm}`;
  const production = env.NODE_ENV === 'production';
  // Cookies signed with the development key could be forged by anyone who read this file.
  if (production && env.IDENTITY_SERVER !== 'false' && !env.COOKIE_KEYS?.trim())
    throw new Error(
      'COOKIE_KEYS must be set in production: a comma list of long random keys (docs/security.md)',
    );
  const addressThrottle = {
    failures: integer(env.ADDRESS_FAILURES, 20),
    windowMinutes: integer(env.ADDRESS_WINDOW_MINUTES, 15),
    blockMinutes: integer(env.ADDRESS_BLOCK_MINUTES, 5),
    maxBlockMinutes: integer(env.ADDRESS_MAX_BLOCK_MINUTES, 60),
  };
  const auth: AuthConfig = {
    issuer,
    audience: env.OIDC_AUDIENCE ?? 'portal',
    jwksFile: env.OIDC_JWKS_FILE || undefined,
    jwksUrl: env.OIDC_JWKS_FILE
      ? undefined
      : (env.OIDC_JWKS_URL ?? `${issuer}/protocol/openid-connect/certs`),
  };
  const flag = (value: string | undefined, fallback: boolean) =>
    value === undefined || value === '' ? fallback : value === 'true' || value === '1';
  return {
    /** Public address of the portal (used in e-mails, redirect URIs, the issuer). */
    publicUrl,
    production,
    /** Built-in identity server: realm name, OIDC client of the portal, cookie signing keys. */
    identity: {
      enabled: flag(env.IDENTITY_SERVER, true),
      realm,
      clientId: env.OIDC_CLIENT_ID ?? 'portal',
      cookieKeys: (env.COOKIE_KEYS ?? 'development-only-cookie-key-change-me').split(','),
      /** Failed sign-ins before a lock; each lock lasts `lockoutMinutes` longer, up to the max. */
      lockoutAttempts: integer(env.LOCKOUT_ATTEMPTS, 5),
      lockoutMinutes: integer(env.LOCKOUT_MINUTES, 15),
      maxLockoutMinutes: integer(env.LOCKOUT_MAX_MINUTES, 24 * 60),
      /** Failed sign-ins and codes one client address may make across accounts (throttle.ts). */
      addressThrottle,
      /** Confirmation codes one client address may ask for or get wrong (SMS pumping). */
      codeThrottle: {
        ...addressThrottle,
        failures: integer(env.ADDRESS_CODE_REQUESTS, 50),
        blockMinutes: addressThrottle.blockMinutes * 3,
      },
    },
    selfRegistration: flag(env.SELF_REGISTRATION, true),
    /** The portal's IANA time zone: its calendar day is "today" for identity-document dates. */
    timeZone: timeZone(env.PORTAL_TIME_ZONE),
    confirmationChannels: {
      mobile: flag(env.CONFIRMATION_MOBILE, true),
      email: flag(env.CONFIRMATION_EMAIL, false),
      agency: flag(env.CONFIRMATION_AGENCY, false),
      agent: flag(env.CONFIRMATION_AGENT, false),
      trader: flag(env.CONFIRMATION_TRADER, false),
    },
    /** Channels a notice to a document's holder goes out on besides their inbox. */
    noticeChannels: {
      email: flag(env.NOTICE_EMAIL, true),
      sms: flag(env.NOTICE_SMS, true),
    },
    /** Whether the public reads which officer acted, rather than "Immigration Service". */
    officerNamesToPublic: flag(env.OFFICER_NAMES_TO_PUBLIC, false),
    /**
     * Whether reads of others' documents are recorded (docs/audit.md): always in production;
     * AUDIT_READS=false elsewhere only, so the scale bench can measure what recording costs.
     */
    auditReads: production || flag(env.AUDIT_READS, true),
    /** Demo accounts, one per persona; never in production. */
    demoData: flag(env.DEMO_DATA, !production),
    /** Whether to add the starting reference data at start (changed entries are kept). */
    referenceData: flag(env.REFERENCE_DATA, true),
    /** The payment gateway and its notifications' secret (random per start when unset). */
    payments: {
      gateway: paymentGateway(env.PAYMENT_GATEWAY),
      sandboxSecret: env.PAYMENT_SANDBOX_SECRET || randomBytes(32).toString('hex'),
    },
    /** Outbound mail: an SMTP URL (smtp://user:pass@host:port); unset keeps mail in the outbox. */
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Immigration Service <no-reply@immigration.example>',
    /** SMS: an HTTP endpoint of the SMS provider; unset keeps messages in the outbox. */
    smsUrl: env.SMS_URL || undefined,
    smsToken: env.SMS_TOKEN || undefined,
    port,
    host: env.HOST ?? '0.0.0.0',
    /** Embedded database folder (PGlite); ignored when databaseUrl is set. */
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    /** PostgreSQL connection string; when set, the server uses it instead of PGlite. */
    databaseUrl: env.DATABASE_URL || undefined,
    /** PostgreSQL schema to work in (tests give each run its own). */
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    /** PostgreSQL connections this process keeps at most (docs/performance.md). */
    databasePoolSize: positive(env.DATABASE_POOL_SIZE, DEFAULT_DATABASE_POOL_SIZE),
    definitionsDir: path.resolve(env.DEFINITIONS_DIR ?? PROJECT_ROOT),
    /** Where generated validator modules are kept between starts; undefined: none. */
    validatorCacheDir:
      env.VALIDATOR_CACHE_DIR === ''
        ? undefined
        : path.resolve(
            env.VALIDATOR_CACHE_DIR ?? path.join(PROJECT_ROOT, 'node_modules/.cache/validators'),
          ),
    staticDir: path.resolve(env.STATIC_DIR ?? path.join(PROJECT_ROOT, 'dist/portal')),
    logLevel: env.LOG_LEVEL ?? 'info',
    /** A bearer token `/metrics` asks for; unset, it answers local addresses only. */
    metricsToken: env.METRICS_TOKEN || undefined,
    /** OpenTelemetry traces: sent to an OTLP/HTTP collector when one is named, else none made. */
    tracing: {
      endpoint:
        env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
        (env.OTEL_EXPORTER_OTLP_ENDPOINT
          ? `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces`
          : undefined),
      serviceName: env.OTEL_SERVICE_NAME || 'immigration-portal',
    },
    bodyLimit: integer(env.BODY_LIMIT_BYTES, 1024 * 1024),
    /** Cap on a search asking for all items (itemsPerPage -1). */
    searchMaxItems: integer(env.SEARCH_MAX_ITEMS, 1000),
    /** Documents a list search counts exactly, past it "more than" (0: every match). */
    searchExactCountLimit: integer(env.SEARCH_EXACT_COUNT_LIMIT, 10000),
    /** Rows a page may skip by number; deeper pages are reached by cursor (0: any depth). */
    searchMaxOffset: integer(env.SEARCH_MAX_OFFSET, 10000),
    /** Public document checks a client address may make per minute (0: no limit). */
    verificationRateLimit: integer(env.VERIFICATION_RATE_LIMIT, 10),
    /** Which proxies' X-Forwarded-For is believed: believing every proxy defeats rate limits. */
    trustProxy: trustProxy(env.TRUST_PROXY),
    /** Largest upload the media backend takes, and the content types it accepts. */
    mediaMaxBytes: integer(env.MEDIA_MAX_BYTES, 10 * 1024 * 1024),
    mediaTypes: (env.MEDIA_TYPES ?? 'application/pdf,image/jpeg,image/png')
      .split(',')
      .map((t) => t.trim()),
    auth,
  };
}

export const DEFAULT_DATABASE_POOL_SIZE = 10;

function positive(value: string | undefined, fallback: number): number {
  const parsed = integer(value, fallback);
  if (parsed === 0) throw new Error(`Expected a whole number above 0, got "${value}"`);
  return parsed;
}

function integer(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`Expected a whole number, got "${value}"`);
  return parsed;
}

function trustProxy(value: string | undefined): boolean | string[] {
  const text = (value ?? 'loopback').trim();
  if (text === 'false' || text === '') return false;
  if (text === 'true') return true;
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

function timeZone(value: string | undefined): string {
  const zone = value || DEFAULT_TIME_ZONE;
  if (!isTimeZone(zone)) throw new Error(`PORTAL_TIME_ZONE=${zone}: not a time zone name`);
  return zone;
}

/** The configured gateway; only the sandbox is built in (docs/payments.md: adding a real one). */
function paymentGateway(value: string | undefined): 'sandbox' {
  if (value === undefined || value === '' || value === 'sandbox') return 'sandbox';
  throw new Error(
    `PAYMENT_GATEWAY=${value}: this build has the sandbox gateway only (see docs/payments.md)`,
  );
}
