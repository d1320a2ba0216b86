import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_PATH: z.string().min(1).default("data/freela.db"),
  /** postgres://… selects PostgreSQL (several servers on one database); unset, SQLite at DATABASE_PATH. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/./, "must be a postgres:// URL")
    .optional(),
  /** Connections each server process keeps open to PostgreSQL. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * Frequent statements prepared per PostgreSQL connection (db/prepared.ts). Off behind a pooler
   * in transaction mode that does not keep prepared statements (PgBouncer before 1.21).
   */
  DATABASE_PREPARED_STATEMENTS: flag.default("on"),
  UPLOADS_DIR: z.string().min(1).default("data/uploads"),
  /**
   * Where uploaded files are kept: `folder` (UPLOADS_DIR), `database` (the photos table, PostgreSQL
   * only) or `s3` (a bucket of S3 or a compatible service). Unset: `database` with DATABASE_URL,
   * `folder` otherwise.
   */
  FILE_STORAGE: z.enum(["folder", "database", "s3"]).optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** bucket in the path (http://host/bucket/key), as MinIO and most compatible services want. */
  S3_FORCE_PATH_STYLE: flag.default("false"),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /**
   * The key that seals secrets kept in the database (two-factor); derived from SESSION_SECRET
   * when absent. Set it before changing SESSION_SECRET (docs/operations.md).
   */
  SECRETS_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(10),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default("Freela <nao-responda@freela.local>"),
  /**
   * The site's address as users reach it: every link sent outside a response (password reset,
   * e-mails, unsubscribe) is built from it, never from a request's Host. Required in production;
   * elsewhere http://localhost:PORT.
   */
  APP_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, "must be an http(s):// URL")
    .optional(),
  /** How often each server process drains the e-mail outbox; 0: never. */
  OUTBOX_SECONDS: z.coerce.number().int().min(0).max(3_600).default(10),
  SEED_DEMO: flag.optional(),
  /** How often each server process runs the saved searches' digests (e-mail alerts); 0: never. */
  SAVED_SEARCH_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** How often each server process runs the contracts' schedule (reminders, automatic completion, overdue); 0: never. */
  CONTRACT_SCHEDULE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /**
   * Logs `[jobs] <job> ran` after every run of a periodic job (outbox, schedules, digests):
   * the server tests wait for runs instead of sleeping. Off by default.
   */
  JOBS_TRACE: flag.default("off"),
  // For tests: a text missing from the translations renders as ⟦key⟧, so a crawl can find it.
  I18N_STRICT: flag.default("off"),
  /** The least level the server logs (JSON lines on stdout); `info` by default, `silent` under test. */
  LOG_LEVEL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  ),
  /** Turns /metrics on (Prometheus text), for scrapers that send `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().min(16, "must be at least 16 characters").optional(),
  ),
  /**
   * `required`: new accounts confirm their e-mail before they publish, apply, message or invite;
   * `off`: no confirmation asked (closed communities that vouch for their members).
   */
  EMAIL_VERIFICATION: z.enum(["required", "off"]).default("required"),
  /**
   * `required`: an operator reaches the console only with two-factor sign-in on (until then every
   * console page sends them to turn it on); `off`: the role is enough (the demo, and test servers
   * that are about other things).
   */
  OPERATOR_TWO_FACTOR: z.enum(["required", "off"]).default("required"),
  /** What each user may keep in message and delivery files, in MB. */
  STORAGE_QUOTA_MB: z.coerce.number().int().min(1).max(1_000_000).default(1024),
  /** Set behind a reverse proxy that appends the client address to X-Forwarded-For. */
  TRUST_PROXY: flag.default("0"),
  /**
   * With TRUST_PROXY: the header in which that proxy writes where the client is (a city or a
   * country, e.g. `CF-IPCountry`, or one the operator's proxy sets from its own geo database),
   * shown in the sessions list. Unset: no place is shown; the app never looks an address up.
   */
  PLACE_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, "must be a header name")
    .optional(),
  /** off: money is only agreed between the two sides; escrow: milestones are funded by Pix and held until released. */
  PAYMENTS: z.enum(["off", "escrow"]).default("off"),
  /** The platform's fee in basis points (1000 = 10%), frozen on each contract at the hire. */
  PLATFORM_FEE_BPS: z.coerce.number().int().min(0).max(5_000).default(1_000),
  /** Who issues and confirms the Pix charges: the operator by hand, or Mercado Pago. */
  PAYMENTS_PROVIDER: z.enum(["manual", "mercadopago"]).default("manual"),
  /** The operator's Pix key, name and city for the BR Codes of the manual provider. */
  PIX_KEY: z.string().min(1).max(77).default("pagamentos@freela.dev"),
  PIX_NAME: z.string().min(1).max(25).default("Freela Pagamentos"),
  PIX_CITY: z.string().min(1).max(15).default("Sao Paulo"),
  /** How many hours the operator usually takes to confirm a manual Pix ("Já paguei") and to send a payout. */
  MANUAL_PIX_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  /** The smallest payout a freelancer may ask for, in centavos. */
  PAYOUT_MIN_CENTS: z.coerce.number().int().min(1).max(100_000_000).default(2_000),
  /** A merchant records who they are before funding more than this in 30 days, in centavos (R$ 1.000,00). */
  IDENTITY_REQUIRED_ABOVE_CENTS: z.coerce.number().int().min(0).max(100_000_000_000).default(100_000),
  /**
   * New accounts' first hours (docs/product.md, "Contas novas"): at most so many applications and
   * first messages to strangers, and no links in a first message. 0 turns the window off.
   */
  NEW_ACCOUNT_HOURS: z.coerce.number().int().min(0).max(720).default(48),
  NEW_ACCOUNT_MAX_APPLICATIONS: z.coerce.number().int().min(0).max(1_000).default(5),
  NEW_ACCOUNT_MAX_FIRST_MESSAGES: z.coerce.number().int().min(0).max(1_000).default(5),
  /** Mercado Pago: the API's address (tests point it at a local server), the access token, the webhooks' secret. */
  MERCADOPAGO_API_URL: z.string().url().default("https://api.mercadopago.com"),
  MERCADOPAGO_ACCESS_TOKEN: z.string().min(1).optional(),
  MERCADOPAGO_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  /**
   * Pix Automático (docs/payments.md): a PSP answering the Banco Central's API Pix for recurrences
   * (/v2/locrec, /v2/rec, /v2/cobr); its address (tests point it at a local server), its token and
   * the webhooks' secret. Unset: monthly contracts are paid by ordinary Pix only.
   */
  PIX_AUTOMATICO_API_URL: z.string().url().optional(),
  PIX_AUTOMATICO_TOKEN: z.string().min(1).optional(),
  PIX_AUTOMATICO_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  /** Who checks the identity documents: the operator's queue, or an automatic KYC service (HTTP API and signed webhook). */
  IDENTITY_PROVIDER: z.enum(["manual", "kyc"]).default("manual"),
  /** The KYC service: its API's address (tests point it at a local server), its token, the webhooks' shared secret. */
  IDENTITY_PROVIDER_URL: z.string().url().optional(),
  IDENTITY_PROVIDER_TOKEN: z.string().min(1).optional(),
  IDENTITY_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  /** Mailgun's HTTP webhook signing key: bounces and complaints at /api/webhooks/email/mailgun (off without it). */
  MAILGUN_WEBHOOK_SIGNING_KEY: z.string().min(16, "must be at least 16 characters").optional(),
  /** Web Push's VAPID key pair (base64url, as web-push generates them); unset: generated once and kept in the database. */
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  /** Who the push services may contact about our pushes (mailto: or https:); unset: APP_URL if https, else MAIL_FROM's address. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, "must be a mailto: or https:// address")
    .optional(),
  /**
   * The push services a subscription's endpoint may be on: host names, a leading `*.` for any
   * subdomain, comma separated. Nothing else is ever sent a push.
   */
  PUSH_SERVICE_HOSTS: z
    .string()
    .min(1)
    .default(
      "fcm.googleapis.com,updates.push.services.mozilla.com,*.notify.windows.com,web.push.apple.com,*.push.apple.com",
    ),
  /** Tests only (ignored unless NODE_ENV=test): the stand-in push service's origin, http://127.0.0.1:<port>. */
  PUSH_TEST_ENDPOINT_ORIGIN: z.string().url().optional(),
  /**
   * WhatsApp alerts (Meta's Cloud API): on only when the phone number id and the token are set. The
   * API's address with its version (tests point it at a stand-in), the app secret that signs the
   * webhooks, the token of the webhook's GET handshake, and the daily caps (per user, and for the
   * platform, per São Paulo day).
   */
  WHATSAPP_API_URL: z.string().url().default("https://graph.facebook.com/v21.0"),
  WHATSAPP_PHONE_NUMBER_ID: z.string().min(1).optional(),
  WHATSAPP_TOKEN: z.string().min(1).optional(),
  WHATSAPP_APP_SECRET: z.string().min(1).optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().min(1).optional(),
  WHATSAPP_DAILY_PER_USER: z.coerce.number().int().min(0).max(1_000).default(10),
  WHATSAPP_DAILY_TOTAL: z.coerce.number().int().min(0).max(10_000_000).default(1_000),
  /** The shared secret of the generic bounce webhook, /api/webhooks/email/generic (off without it). */
  EMAIL_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  /**
   * The Sefin Nacional's address (NFS-e Nacional), for both environments: unset, produção restrita
   * and produção use their official addresses (sefin-client.server.ts); tests point it at a stand-in.
   */
  NFSE_SEFIN_URL: z
    .string()
    .url()
    .regex(/^https:\/\//, "must be an https:// URL")
    .optional(),
  /** A PEM file of one more CA to trust for the Sefin's server certificate (the stand-in's), besides the system's. */
  NFSE_SEFIN_CA_FILE: z.string().min(1).optional(),
  /**
   * The ADN's DANFSe address, for the links to a nota's PDF (`<url>/<chave de acesso>`). Unset:
   * the ADN's own for each nota's environment (produção restrita or produção).
   */
  NFSE_ADN_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, "must be an http(s):// URL")
    .optional(),
});

export type Config = z.infer<typeof schema> & {
  FILE_STORAGE: "folder" | "database" | "s3";
  SESSION_SECRET: string;
  SEED_DEMO: boolean;
  APP_URL: string;
  APP_URL_SET: boolean;
};

const DEV_SECRET_FILE = "data/session-secret";

// Outside production a secret is generated once and kept on disk, so sessions survive restarts.
function developmentSecret(): string {
  if (existsSync(DEV_SECRET_FILE)) return readFileSync(DEV_SECRET_FILE, "utf8").trim();
  const secret = randomBytes(32).toString("hex");
  mkdirSync(dirname(DEV_SECRET_FILE), { recursive: true });
  writeFileSync(DEV_SECRET_FILE, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.keys(schema.shape).map((key) => [key, env[key] === "" ? undefined : env[key]]),
  );
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration in the environment:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  if (c.NODE_ENV === "production" && !c.SESSION_SECRET) {
    throw new Error(
      "Invalid configuration in the environment:\n  SESSION_SECRET: required when NODE_ENV=production (at least 32 characters)",
    );
  }
  if (c.PAYMENTS_PROVIDER === "mercadopago" && (!c.MERCADOPAGO_ACCESS_TOKEN || !c.MERCADOPAGO_WEBHOOK_SECRET)) {
    throw new Error(
      "Invalid configuration in the environment:\n  PAYMENTS_PROVIDER=mercadopago needs MERCADOPAGO_ACCESS_TOKEN and MERCADOPAGO_WEBHOOK_SECRET",
    );
  }
  if (c.PIX_AUTOMATICO_API_URL && (!c.PIX_AUTOMATICO_TOKEN || !c.PIX_AUTOMATICO_WEBHOOK_SECRET)) {
    throw new Error(
      "Invalid configuration in the environment:\n  PIX_AUTOMATICO_API_URL needs PIX_AUTOMATICO_TOKEN and PIX_AUTOMATICO_WEBHOOK_SECRET",
    );
  }
  if (
    c.IDENTITY_PROVIDER === "kyc" &&
    (!c.IDENTITY_PROVIDER_URL || !c.IDENTITY_PROVIDER_TOKEN || !c.IDENTITY_WEBHOOK_SECRET)
  ) {
    throw new Error(
      "Invalid configuration in the environment:\n  IDENTITY_PROVIDER=kyc needs IDENTITY_PROVIDER_URL, IDENTITY_PROVIDER_TOKEN and IDENTITY_WEBHOOK_SECRET",
    );
  }
  const storage = c.FILE_STORAGE ?? (c.DATABASE_URL ? "database" : "folder");
  if (storage === "database" && !c.DATABASE_URL) {
    throw new Error(
      "Invalid configuration in the environment:\n  FILE_STORAGE=database needs DATABASE_URL (the photos table is PostgreSQL's); use folder or s3",
    );
  }
  if (storage === "s3" && (!c.S3_BUCKET || !c.S3_ACCESS_KEY_ID || !c.S3_SECRET_ACCESS_KEY)) {
    throw new Error(
      "Invalid configuration in the environment:\n  FILE_STORAGE=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY",
    );
  }
  const secret = c.SESSION_SECRET ?? (c.NODE_ENV === "test" ? randomBytes(32).toString("hex") : developmentSecret());
  return {
    ...c,
    FILE_STORAGE: storage,
    SESSION_SECRET: secret,
    SEED_DEMO: c.SEED_DEMO ?? c.NODE_ENV !== "production",
    APP_URL: (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ""),
    APP_URL_SET: c.APP_URL !== undefined,
  };
}

/**
 * What the web server needs beyond what every script does: in production, the site's public
 * address. Without it a link in an e-mail would have nothing trustworthy to be built from (a
 * request's Host is whatever the client says), so the server refuses to start. Called once by
 * the server build (entry.server.tsx); migrations, backups and the other scripts do not need it.
 */
export function assertServerConfig(c: Config = config) {
  if (c.NODE_ENV === "production" && !c.APP_URL_SET) {
    throw new Error(
      "Invalid configuration in the environment:\n  APP_URL: required when NODE_ENV=production: the site's public address, such as https://freela.example.com.br (every link in e-mails is built from it)",
    );
  }
}

export const config = loadConfig();
export const isProduction = config.NODE_ENV === "production";
