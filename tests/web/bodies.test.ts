import { describe, expect, it } from "vitest";
import { registerSchema } from "~/lib/schemas";
import { opportunityInputSchema } from "~/lib/market-schemas";
import { queryFromUrl } from "~/web/market-forms.server";
import { AppError, fieldErrorsOf } from "~/services/platform/errors.server";
import { MAX_FORM_BYTES, queryOf, readForm, readJson, readOptionalJson, readPhotoForm } from "~/web/bodies.server";
import { MAX_PHOTO_BYTES } from "~/services/platform/uploads.server";
import { refusal, validOpportunity } from "../support/market";

const URL_ = "http://localhost/x";

function post(body: BodyInit | null, type: string | null, headers: Record<string, string> = {}) {
  return new Request(URL_, {
    method: "POST",
    headers: { ...(type ? { "Content-Type": type } : {}), ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** A body sent in pieces, without a Content-Length. */
function streamOf(size: number, chunk = 64 * 1024) {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(chunk, size - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(97));
    },
  });
}

describe("readForm (every page action)", () => {
  it("reads url-encoded and multipart forms", async () => {
    const encoded = await readForm(post("a=1&b=%C3%A9", "application/x-www-form-urlencoded"));
    expect([...encoded]).toEqual([
      ["a", "1"],
      ["b", "é"],
    ]);
    const data = new FormData();
    data.append("a", "1");
    const multipart = await readForm(new Request(URL_, { method: "POST", body: data }));
    expect(multipart.get("a")).toBe("1");
  });

  it("takes a post without body or content type as an empty form", async () => {
    expect([...(await readForm(post(null, null)))]).toEqual([]);
  });

  it("refuses other content types with 415, a body without a type included", async () => {
    for (const type of ["application/json", "text/plain", "application/xml", "multipart/mixed; boundary=x"]) {
      expect(await refusal(readForm(post("a=1", type))), type).toMatchObject({
        status: 415,
        key: "unsupported_media_type",
      });
    }
    expect(await refusal(readForm(post(new TextEncoder().encode("a=1"), null)))).toMatchObject({ status: 415 });
  });

  it("refuses a body past 1 MB with 413, declared or not", async () => {
    const big = "a=" + "x".repeat(MAX_FORM_BYTES);
    expect(await refusal(readForm(post(big, "application/x-www-form-urlencoded")))).toMatchObject({
      status: 413,
      key: "payload_too_large",
    });
    const streamed = post(streamOf(MAX_FORM_BYTES + 1), "application/x-www-form-urlencoded");
    expect(streamed.headers.get("Content-Length")).toBeNull();
    expect(await refusal(readForm(streamed))).toMatchObject({ status: 413 });
  });

  it("refuses a multipart body that does not parse with 400", async () => {
    expect(await refusal(readForm(post("a=1", "multipart/form-data")))).toMatchObject({
      status: 400,
      key: "malformed_form",
    });
    const truncated = '--xx\r\nContent-Disposition: form-data; name="a"\r\n\r\nsem fim';
    expect(await refusal(readForm(post(truncated, "multipart/form-data; boundary=xx")))).toMatchObject({ status: 400 });
    const midFile = '--xx\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n\r\n%PDF-1.4 sem fim';
    expect(await refusal(readForm(post(midFile, "multipart/form-data; boundary=xx")))).toMatchObject({
      status: 400,
      key: "malformed_form",
    });
  });

  it("answers 400 when the client hangs up mid-body", async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("a="));
        controller.error(new Error("aborted"));
      },
    });
    expect(await refusal(readForm(post(broken, "application/x-www-form-urlencoded")))).toMatchObject({
      status: 400,
      key: "body_incomplete",
    });
  });
});

describe("readForm streams: limits while parsing, real file names, text checked at the edge", () => {
  const multipart = (parts: string[], boundary = "b0undary") =>
    post(
      `${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join("")}--${boundary}--\r\n`,
      `multipart/form-data; boundary=${boundary}`,
    );
  const filePart = (disposition: string) =>
    `Content-Disposition: form-data; name="files"; ${disposition}\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4`;

  it("keeps file names as browsers send them (RFC 7578): ; = quotes and accents, or filename*", async () => {
    const names: [string, string][] = [
      ['filename="Relatório; versão final.pdf"', "Relatório; versão final.pdf"],
      ['filename="a=b.pdf"', "a=b.pdf"],
      ['filename="diga %22oi%22.pdf"', 'diga "oi".pdf'],
      ['filename="diga \\"oi\\".pdf"', 'diga "oi".pdf'],
      ["filename*=UTF-8''Relat%C3%B3rio%20final.pdf", "Relatório final.pdf"],
      ['filename="日本語 ✓.pdf"', "日本語 ✓.pdf"],
    ];
    for (const [disposition, name] of names) {
      const form = await readForm(multipart([filePart(disposition)]));
      expect((form.get("files") as File).name, disposition).toBe(name);
    }
  });

  it("refuses a body of many tiny parts with 413 as soon as it passes the limit", async () => {
    const tiny = Array.from({ length: 10_000 }, (_, i) => `Content-Disposition: form-data; name="f${i}"\r\n\r\nx`);
    expect(await refusal(readForm(multipart(tiny)))).toMatchObject({ status: 413, key: "form_too_many_parts" });
    // Past the byte limit too (a delivery's 50 MB): the part count stops it first.
    expect(await refusal(readForm(multipart(tiny), { limit: 50 * 1024 * 1024 }))).toMatchObject({
      status: 413,
      key: "form_too_many_parts",
    });
    const manyFields = Array.from({ length: 50_000 }, (_, i) => `f${i}=x`).join("&");
    expect(await refusal(readForm(post(manyFields, "application/x-www-form-urlencoded")))).toMatchObject({
      status: 413,
      key: "form_too_many_parts",
    });
    const files = Array.from({ length: 3 }, () => filePart('filename="a.pdf"'));
    expect(await refusal(readForm(multipart(files)))).toMatchObject({ status: 413, key: "form_too_many_parts" });
    const ok = Array.from({ length: 150 }, (_, i) => `Content-Disposition: form-data; name="f${i}"\r\n\r\nx`);
    expect([...(await readForm(multipart(ok))).keys()]).toHaveLength(150);
  });

  it("refuses a file past its size while it streams, on the caller's field", async () => {
    const big = `Content-Disposition: form-data; name="files"; filename="g.zip"\r\n\r\n${"x".repeat(2000)}`;
    const fileTooLarge = (field: string) => new AppError(413, "file_too_large", { [field]: "file_too_large" });
    expect(await refusal(readForm(multipart([big]), { fileBytes: 1000, fileTooLarge }))).toEqual({
      status: 413,
      key: "file_too_large",
      fields: { files: "file_too_large" },
    });
  });

  it("refuses control characters in any text field with 422 naming it", async () => {
    expect(
      await refusal(readForm(post("ok=1&link=https%3A%2F%2Fex.com%2Fa%00b", "application/x-www-form-urlencoded"))),
    ).toEqual({
      status: 422,
      key: "validation_failed",
      fields: { link: "text_invalid_characters" },
    });
    expect(
      await refusal(readForm(multipart(['Content-Disposition: form-data; name="bio"\r\n\r\na\u001bb']))),
    ).toMatchObject({
      fields: { bio: "text_invalid_characters" },
    });
    const kept = await readForm(post("bio=linha%0D%0Anova%09tab", "application/x-www-form-urlencoded"));
    expect(kept.get("bio")).toBe("linha\r\nnova\ttab");
  });
});

describe("JSON bodies and queries refuse control characters at the edge", () => {
  it("names the field, however deep the text is", async () => {
    expect(await refusal(readJson(post('{"title":"a\\u0000b","n":1}', "application/json")))).toEqual({
      status: 422,
      key: "validation_failed",
      fields: { title: "text_invalid_characters" },
    });
    expect(await refusal(readJson(post('{"skills":["ok","a\\u0007"]}', "application/json")))).toMatchObject({
      fields: { skills: "text_invalid_characters" },
    });
    expect(await refusal(readJson(post('{"kinds":{"x":"\\ud800"}}', "application/json")))).toMatchObject({
      fields: { kinds: "text_invalid_characters" },
    });
    expect(await readJson(post('{"t":"linha\\nnova \\u202e ok"}', "application/json"))).toEqual({
      t: "linha\nnova \u202e ok",
    });
  });

  it("a query parameter too (pages drop it instead)", () => {
    expect(() => queryOf(new Request("http://localhost/api/freelancers?skill=a%00b&city=ok"))).toThrow(AppError);
    try {
      queryOf(new Request("http://localhost/api/freelancers?city=a%00b"));
    } catch (error) {
      expect((error as AppError).fieldErrors).toEqual({ city: "text_invalid_characters" });
    }
    expect(queryFromUrl(new Request("http://localhost/freelancers?city=a%00b&skill=React"), ["city", "skill"])).toEqual(
      { skill: "React" },
    );
  });
});

describe("readPhotoForm (profile)", () => {
  const photoForm = (bytes: number) => {
    const data = new FormData();
    data.append("full_name", "Nome");
    data.append("photo", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "foto.png");
    return new Request(URL_, { method: "POST", body: data });
  };

  it("takes a photo up to 2 MB", async () => {
    const form = await readPhotoForm(photoForm(MAX_PHOTO_BYTES));
    expect((form.get("photo") as Blob).size).toBe(MAX_PHOTO_BYTES);
  });

  it("reports anything larger on the photo field with 413", async () => {
    for (const size of [MAX_PHOTO_BYTES + 1, MAX_PHOTO_BYTES + MAX_FORM_BYTES + 1]) {
      expect(await refusal(readPhotoForm(photoForm(size)))).toEqual({
        status: 413,
        key: "photo_too_large",
        fields: { photo: "photo_too_large" },
      });
    }
  });
});

describe("readJson and readOptionalJson", () => {
  it("an optional body may be left out entirely", async () => {
    expect(await readOptionalJson(post(null, null))).toEqual({});
    expect(await refusal(readOptionalJson(post(new TextEncoder().encode("x"), null)))).toMatchObject({ status: 415 });
    expect(await readOptionalJson(post('{"ids":["a"]}', "application/json"))).toEqual({ ids: ["a"] });
  });

  it("refuses JSON past 1 MB even when streamed", async () => {
    expect(await refusal(readJson(post(streamOf(1024 * 1024 + 1), "application/json")))).toMatchObject({ status: 413 });
  });
});

describe("text fields refuse what nobody types", () => {
  const titleErrors = (title: unknown) => {
    const result = opportunityInputSchema.safeParse({ ...validOpportunity, title });
    return result.success ? {} : fieldErrorsOf(result.error);
  };

  it("control characters and lone surrogates are refused with their own message", () => {
    for (const bad of ["\u0000", "\u0007", "\u001b[2J", "\u007f", "\ud800", "\udfff", "fim\ud83d"]) {
      expect(titleErrors(`Título ${bad} aqui`), JSON.stringify(bad)).toEqual({ title: "text_invalid_characters" });
    }
    const reg = registerSchema.safeParse({
      full_name: "Nome\u0000",
      email: "a@b.com",
      password: "senha-segura-1",
      account_type: "merchant",
    });
    expect(reg.success).toBe(false);
  });

  it("counts only visible characters toward a minimum length", () => {
    for (const invisible of [
      "\u200B".repeat(10),
      "\u200B \u200C \u200D \u2060 \uFEFF",
      "a\u200B\u200B\u200B\u200Bb",
      "\u202E\u202Eabcd\u202C",
    ]) {
      expect(titleErrors(invisible), JSON.stringify(invisible)).toEqual({ title: "title_length" });
    }
    const reg = registerSchema.safeParse({
      full_name: "\u200B\u200B\u200B",
      email: "a@b.com",
      password: "senha-segura-1",
      account_type: "merchant",
    });
    expect(reg.success).toBe(false);
    // Five visible characters are enough, whatever else the text carries.
    expect(titleErrors("a\u200Bbcde")).toEqual({});
  });

  it("line breaks, tabs, emoji, right-to-left and combining marks are kept as sent", () => {
    // A title is one line (line breaks are refused: tests/web/hardening.api.test.ts); the
    // description keeps them.
    const description = `${validOpportunity.description}\nLinha\nquebrada\tcom tab`;
    expect(opportunityInputSchema.parse({ ...validOpportunity, description }).description).toBe(description);
    for (const good of [
      "Com\ttab",
      "Vaga 👩🏽‍💻 🇧🇷",
      "\u202Egnp.exe\u202C",
      "مرحبا",
      "Ze\u0301\u0301",
      "a\u200Bb\uFEFFc",
    ]) {
      const title = `Título ${good} aqui`;
      const parsed = opportunityInputSchema.parse({ ...validOpportunity, title });
      expect(parsed.title).toBe(title);
    }
  });
});
