import type { Readable } from "node:stream";
import { Busboy } from "@fastify/busboy";
import { AppError } from "~/services/platform/errors.server";
import { emailKindsFor, isWhatsappKind, type EmailKindName } from "~/lib/email-kinds";
import { MAX_DELIVERY_FILES, MAX_MESSAGE_FILES } from "~/lib/market-constants";
import { MAX_PFX_BYTES } from "~/lib/fiscal-schemas";
import { certificateTooLarge } from "~/services/fiscal/issuers.server";
import { MAX_ATTACHMENT_BYTES, MAX_PHOTO_BYTES } from "~/services/platform/uploads.server";
import { refuseUntypeable, refuseUntypeableForm } from "./input.server";

// Body readers, for the API and pages alike: JSON, url-encoded and multipart forms, each with its
// size limit read no further than that, and the right refusal (413, 415, 400) when it does not fit;
// text with control characters is refused once here, for every body field and query parameter.

export const MAX_JSON_BYTES = 1024 * 1024;

/** A delivery's body: its files (10 MB each, checked one by one later) and text, 50 MB in all. */
export const MAX_DELIVERY_BYTES = 50 * 1024 * 1024;

type BusboyInstance = ReturnType<typeof Busboy>;

/** Reads a JSON object body: 415 for another content type, 413 over 1 MB, 400 when malformed. */
export async function readJson(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) throw refuseBody(request, 415, "unsupported_media_type");
  const body = parseJsonObject(await readLimited(request, MAX_JSON_BYTES));
  refuseUntypeable(body);
  return body;
}

function parseJsonObject(body: string): Record<string, unknown> {
  if (body.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new AppError(400, "malformed_json");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError(400, "json_not_object");
  }
  return value as Record<string, unknown>;
}

/** Like readJson, for endpoints whose body may be left out: no body and no content type is `{}`. */
export async function readOptionalJson(request: Request): Promise<Record<string, unknown>> {
  if (request.headers.get("Content-Type")) return readJson(request);
  // The server hands every POST a body stream, empty or not, so emptiness is known by reading.
  if ((await readLimitedBytes(request, MAX_JSON_BYTES)).byteLength === 0) return {};
  throw new AppError(415, "unsupported_media_type");
}

/**
 * A URL's query string as a plain object, for the list schemas; a parameter holding control
 * characters is a 422 naming it, like a body field.
 */
export function queryOf(request: Request): Record<string, string> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  refuseUntypeable(query);
  return query;
}

/** Reads the body as text, stopping at the limit instead of buffering whatever is sent. */
export async function readLimited(request: Request, limit: number) {
  return (await readLimitedBytes(request, limit)).toString("utf8");
}

/** The next piece of a body; 400 when the client went away mid-body. */
export async function nextChunk(reader: ReadableStreamDefaultReader<Uint8Array>) {
  try {
    return await reader.read();
  } catch {
    // Nobody reads the answer then, but it is no server error either.
    throw new AppError(400, "body_incomplete");
  }
}

/** The body's bytes: 413 past the limit (declared or actual), without buffering the rest. */
export async function readLimitedBytes(request: Request, limit: number): Promise<Buffer> {
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) {
    throw refuseBody(request, 413, "payload_too_large");
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await nextChunk(reader);
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      discard(reader);
      throw new AppError(413, "payload_too_large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** How much of a refused body is still read (and dropped) so the client gets to see the refusal. */
const DISCARD_BYTES = 16 * 1024 * 1024;

/**
 * The error for a body refused without being read; the body is drained in the background.
 * Closing the stream instead would reset the connection before the answer goes out, and the
 * client, still sending, would see a network error rather than the 413 or 415.
 */
export function refuseBody(request: Request, status: number, key: string) {
  if (request.body && !request.bodyUsed) discard(request.body.getReader());
  return new AppError(status, key);
}

export function discard(reader: ReadableStreamDefaultReader<Uint8Array>) {
  void (async () => {
    let left = DISCARD_BYTES;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        left -= value.byteLength;
        // Past this the client is not uploading by mistake: the connection is cut.
        if (left < 0) return void (await reader.cancel());
      }
    } catch {
      // The client went away.
    }
  })();
}

/** A form's text fields as an object (files are left out). */
export function formValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string") values[key] = value;
  return values;
}

/** A plain form's body limit; the photo form adds the photo's own. */
export const MAX_FORM_BYTES = 1024 * 1024;
/**
 * Parts (fields and files) a form may have. The largest page form (the e-mail preferences, a
 * hidden field and a box per kind) has about fifty; a body of many tiny parts is refused as
 * soon as it passes this, while it streams, before anything more is parsed or kept.
 */
export const MAX_FORM_PARTS = 200;

const URLENCODED = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const MULTIPART = /^multipart\/form-data\s*(;|$)/i;

export type FormLimits = {
  /** Bytes of the whole body: 413 `payload_too_large` past it (or `tooLarge()`). */
  limit?: number;
  /** Files the form may carry (a file input left empty counts too). */
  files?: number;
  /** Bytes of one file: past it, `fileTooLarge(field)`. */
  fileBytes?: number;
  tooLarge?: () => AppError;
  fileTooLarge?: (field: string) => AppError;
};

/**
 * A file name as the browser meant it: browsers (and fetch) write `"` as %22 and drop line
 * breaks as %0D/%0A inside the quoted name (HTML's multipart encoding); the rest is as typed.
 */
const browserFileName = (name: string) => name.replace(/%22/g, '"').replace(/%0[DA]/gi, "");

const payloadTooLarge = () => new AppError(413, "payload_too_large");

/**
 * Reads a posted form the way every page action (and the multipart API endpoints) takes it:
 * 415 for a body that is not url-encoded or multipart, 413 past the byte limit (read no further
 * than that), 413 past MAX_FORM_PARTS parts or the files allowed, 400 when it does not parse,
 * 422 for text with control characters. A post with no body at all is an empty form. The body is
 * parsed as it streams in (busboy), so the limits stop a hostile body before it is kept or parsed
 * whole; file names follow RFC 7578 (quoted, any UTF-8, or `filename*`). Call it inside the
 * action's try, so the refusal shows as the form's message with its status.
 */
export async function readForm(request: Request, options: FormLimits = {}): Promise<FormData> {
  const { limit = MAX_FORM_BYTES, files = 1, fileBytes = limit, tooLarge = payloadTooLarge } = options;
  const fileTooLarge = options.fileTooLarge ?? (() => tooLarge());
  const type = request.headers.get("Content-Type") ?? "";
  if (type === "") {
    // The server hands every POST a body stream, empty or not, so emptiness is known by reading.
    if ((await readLimitedBytes(request, limit)).byteLength === 0) return new FormData();
    throw new AppError(415, "unsupported_media_type");
  }
  if (!URLENCODED.test(type) && !MULTIPART.test(type)) throw refuseBody(request, 415, "unsupported_media_type");
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) {
    refuseBody(request, 413, "payload_too_large");
    throw tooLarge();
  }
  const form = new FormData();
  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: { "content-type": type },
      // One more than allowed, so that passing a limit is seen (busboy may drop the rest quietly).
      limits: {
        parts: MAX_FORM_PARTS + 1,
        fields: MAX_FORM_PARTS + 1,
        files: files + 1,
        fileSize: fileBytes,
        fieldSize: limit,
        fieldNameSize: 200,
      },
    });
  } catch {
    throw refuseBody(request, 400, "malformed_form");
  }
  // The first refusal met while parsing; the body is then no longer parsed, only drained.
  let refusal: AppError | null = null;
  const refuse = (error: AppError) => (refusal ??= error);
  const pending: Promise<void>[] = [];
  const tooManyParts = () => refuse(new AppError(413, "form_too_many_parts", undefined, { max: MAX_FORM_PARTS }));
  let parts = 0;
  let fileCount = 0;
  parser.on("field", (name: string, value: string, nameTruncated: boolean, valueTruncated: boolean) => {
    if (++parts > MAX_FORM_PARTS) tooManyParts();
    if (valueTruncated) refuse(tooLarge());
    else if (!nameTruncated) form.append(name, value);
  });
  parser.on(
    "file",
    (name: string, stream: Readable, filename: string | undefined, _encoding: string, mimeType: string) => {
      if (++parts > MAX_FORM_PARTS || ++fileCount > files) tooManyParts();
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => refuse(fileTooLarge(name)));
      pending.push(
        new Promise((done) => {
          stream.on("end", () => {
            form.append(
              name,
              new File([new Uint8Array(Buffer.concat(chunks))], browserFileName(filename ?? ""), {
                type: mimeType || "application/octet-stream",
              }),
            );
            done();
          });
          // A body cut short mid-file: the parser's own error says so.
          stream.on("error", () => done());
        }),
      );
    },
  );
  parser.on("partsLimit", tooManyParts);
  parser.on("fieldsLimit", tooManyParts);
  parser.on("filesLimit", tooManyParts);
  const finished = new Promise<void>((done, fail) => {
    parser.on("finish", done);
    parser.on("error", fail);
  });
  finished.catch(() => refuse(new AppError(400, "malformed_form")));

  if (request.body) {
    const reader = request.body.getReader();
    let size = 0;
    for (;;) {
      const chunk = await nextChunk(reader);
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > limit) refuse(tooLarge());
      if (refusal) {
        discard(reader);
        parser.destroy();
        throw refusal;
      }
      if (!parser.write(chunk.value)) await new Promise((done) => parser.once("drain", done));
    }
  }
  parser.end();
  await finished.catch(() => undefined);
  await Promise.all(pending);
  if (refusal) throw refusal;
  refuseUntypeableForm(form);
  return form;
}

/**
 * Reads a form holding at most one photo (in `field`) (JPEG/PNG/WebP, checked later by content). Only the
 * photo can make such a form large, so anything over the limit is reported on the photo field.
 */
export async function readPhotoForm(request: Request, field = "photo") {
  const tooLarge = () => photoTooLarge(field);
  return readForm(request, {
    limit: MAX_PHOTO_BYTES + MAX_FORM_BYTES,
    files: 2,
    fileBytes: MAX_PHOTO_BYTES,
    tooLarge,
    fileTooLarge: tooLarge,
  });
}

/** The identity documents' form: doc_type and three photos (front, back, selfie), 10 MB each. */
export async function readIdentityForm(request: Request) {
  return readForm(request, {
    limit: 3 * MAX_ATTACHMENT_BYTES + MAX_FORM_BYTES,
    files: 3,
    fileBytes: MAX_ATTACHMENT_BYTES,
    fileTooLarge: (field) => new AppError(413, "file_too_large", { [field]: "file_too_large" }),
  });
}

/** The fiscal settings' form: its fields and at most one A1 certificate (`certificate`, 50 KB). */
export async function readCertificateForm(request: Request) {
  return readForm(request, {
    limit: MAX_PFX_BYTES + MAX_FORM_BYTES,
    files: 1,
    fileBytes: MAX_PFX_BYTES,
    fileTooLarge: () => certificateTooLarge(),
  });
}

function photoTooLarge(field: string) {
  return new AppError(413, "photo_too_large", { [field]: "photo_too_large" });
}

/**
 * The profile fields of a form, only those it carries (a field left out stays as it is); skills
 * may come as one comma-separated field or several. A check box is sent after a hidden field of
 * the same name, so the last value is the box's when ticked and the hidden one's otherwise.
 */
export function profileInput(form: FormData) {
  const input: Record<string, unknown> = formValues(form);
  const skills = form.getAll("skills").filter((v): v is string => typeof v === "string");
  if (skills.length > 1) input.skills = skills;
  const remote = form.getAll("remote").filter((v): v is string => typeof v === "string");
  if (remote.length > 0) input.remote = remote[remote.length - 1];
  const shown = form.getAll("public_profile").filter((v): v is string => typeof v === "string");
  if (shown.length > 0) input.public_profile = shown[shown.length - 1];
  const photo = form.get("photo");
  return { input, photo: photo instanceof Blob ? photo : null };
}

/** The file in a form's `field`, if one was chosen. */
export function fileOf(form: FormData, field: string): Blob | null {
  const file = form.get(field);
  return file instanceof Blob && file.size > 0 ? file : null;
}

export type FilesForm = { field: string; limit: number; maxFiles: number; tooLargeKey: string };

/** A contract delivery: up to 10 files of 10 MB, 50 MB in all. */
export const DELIVERY_FORM: FilesForm = {
  field: "files",
  limit: MAX_DELIVERY_BYTES,
  maxFiles: MAX_DELIVERY_FILES,
  tooLargeKey: "delivery_too_large",
};
/** A message: up to 5 files of 10 MB, and its text. */
export const MESSAGE_FORM: FilesForm = {
  field: "files",
  limit: MAX_MESSAGE_FILES * MAX_ATTACHMENT_BYTES + MAX_FORM_BYTES,
  maxFiles: MAX_MESSAGE_FILES,
  tooLargeKey: "message_too_large",
};

/** A time entry (its fields as JSON's) with at most one file of 10 MB, in `file`. */
export const ENTRY_FORM: FilesForm = {
  field: "file",
  limit: MAX_ATTACHMENT_BYTES + MAX_FORM_BYTES,
  maxFiles: 1,
  tooLargeKey: "file_too_large",
};

/** A form field's name as a page's forms name them (a refusal is reported on it). */
const FIELD_NAME = /^[a-z_]{1,40}$/;

/**
 * Reads a form carrying files (a delivery, a message): past its byte limit the refusal is
 * reported on the files field, where the size comes from, as is a file past 10 MB. A few files
 * more than allowed still reach the service, which names the limit (422); far more stop here
 * while streaming. Returns the text fields and the files chosen (a file input left empty sends
 * a nameless empty part, which is no file).
 */
export async function readFilesForm(request: Request, { field, limit, maxFiles, tooLargeKey }: FilesForm) {
  const form = await readForm(request, {
    limit,
    files: maxFiles * 2,
    fileBytes: MAX_ATTACHMENT_BYTES,
    tooLarge: () => new AppError(413, tooLargeKey, { [field]: tooLargeKey }),
    // On the field the file came in (a page's form may have another file field than `field`).
    fileTooLarge: (name) =>
      new AppError(413, "file_too_large", { [FIELD_NAME.test(name) ? name : field]: "file_too_large" }),
  });
  const files = form
    .getAll(field)
    .filter((v): v is File => v instanceof Blob && !(v.size === 0 && (v as File).name === ""));
  return { form, values: formValues(form), files };
}

/**
 * The settings form's fields as the JSON input: every kind checked is on, every other kind the
 * form offers to this account off (a checkbox left unchecked sends nothing), the kinds it does not
 * offer (the other side's) as they are; an unknown kind is kept, for the 422.
 */
export function emailSettingsFromForm(form: FormData, role: "merchant" | "freelancer") {
  const checked = form.getAll("kinds").filter((v): v is string => typeof v === "string");
  const kinds: Record<string, boolean> = Object.fromEntries(emailKindsFor(role).map((k) => [k, false]));
  for (const kind of checked) kinds[kind] = true;
  const locale = form.get("locale");
  // The push and WhatsApp columns, when the form showed them (`push_shown`, `whatsapp_shown`): the
  // same rule, per kind (WhatsApp's only with a confirmed number, and without new messages).
  const column = (shown: string, field: string, offered: (kind: EmailKindName) => boolean) => {
    if (!form.has(shown)) return undefined;
    const on: Record<string, boolean> = Object.fromEntries(
      emailKindsFor(role)
        .filter(offered)
        .map((k) => [k, false]),
    );
    for (const kind of form.getAll(field)) if (typeof kind === "string") on[kind] = true;
    return on;
  };
  const push = column("push_shown", "push", () => true);
  const whatsapp = column("whatsapp_shown", "whatsapp", isWhatsappKind);
  return {
    kinds,
    ...(push ? { push } : {}),
    ...(whatsapp ? { whatsapp } : {}),
    ...(typeof locale === "string" ? { locale: locale === "" ? null : locale } : {}),
  };
}
