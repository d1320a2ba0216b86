// Hostile values, generated per kind of field. Each generator returns values the field must
// refuse (422 with that field's message); `odd` values are valid text that must come back
// byte-identical once stored.

export type Kind =
  | { type: "text"; min: number; max: number; required: boolean }
  | { type: "int"; min: number; max: number; required: boolean }
  | { type: "enum"; values: readonly string[]; required: boolean }
  | { type: "tags"; max: number }
  | { type: "date" }
  | { type: "email" }
  | { type: "password" }
  /** A string matched against stored data (login e-mail and password, offer ids, tokens). */
  | { type: "key"; max: number }
  | { type: "ids" };

export type Field = { name: string; kind: Kind };

export const text = (name: string, min: number, max: number, required = true): Field => ({
  name,
  kind: { type: "text", min, max, required },
});
export const int = (name: string, min: number, max: number, required = true): Field => ({
  name,
  kind: { type: "int", min, max, required },
});
export const oneOf = (name: string, values: readonly string[], required = true): Field => ({
  name,
  kind: { type: "enum", values, required },
});

/** Valid text with something inside, padded to a length the field takes. */
export function padded(inside: string, min: number) {
  const base = `Texto ${inside} válido`;
  return base.length >= min ? base : base + " de teste".repeat(Math.ceil((min - base.length) / 9));
}

/** Characters no person types and UTF-8 cannot keep: control characters and lone surrogates. */
export const UNTYPEABLE = ["\u0000", "\u0007", "\u001b[2J", "\u007f", "\ud800", "\udfff", "fim\ud83d"];

/** Valid text from the odd corners of Unicode, plus injection attempts that are only text. */
export const ODD: Record<string, string> = {
  emoji: "Vaga 👩🏽‍💻 com foguete 🚀 e bandeira 🇧🇷",
  rtl_override: "Título \u202Egnp.exe\u202C invertido",
  rtl_text: "Texto árabe مرحبا بالعالم e hebraico שלום",
  zero_width: "zero\u200Blargura\u200Cjunta\u200Dpalavra\u2060fim\uFEFFmeio",
  combining: "Ze\u0301\u0301\u0301 Z\u0336\u0334a\u0337l\u0338g\u0335o a\u0303c\u0327",
  nfd: "Ac\u0327a\u0303o decomposta (NFD) e Ação composta",
  astral: "Matemática 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 e ideograma 𠜎",
  separators: "linha\u2028separada\u2029parágrafo",
  sql_or: "' OR 1=1 -- comentário",
  sql_drop: '"; DROP TABLE users;-- fim',
  html: "<script>alert(1)</script><img src=x onerror=alert(2)>",
  template: "{{constructor.constructor('x')()}} ${7*7} #{1}",
  fts: '" NEAR( * col: ( AND OR NOT',
  traversal: "../../etc/passwd %2e%2e%2f",
};

/**
 * Redirect targets that must never leave the site, whatever a browser makes of them: dot
 * segments that resolve to `//host`, escapes, backslashes, control characters, other schemes.
 */
export const OFFSITE_REDIRECTS = [
  "/.//evil.example",
  "/..//evil.example",
  "/./..//evil.example",
  "/%2e%2e//evil.example",
  "/%2E//evil.example",
  "//evil.example",
  "///evil.example",
  "/\\evil.example",
  "/%5Cevil.example",
  "/%2F%2Fevil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/%09/evil.example",
  "https://evil.example/",
  "javascript:alert(1)",
];

/** FTS5 syntax and oddities for the search box: all of them are just words to look for. */
export const SEARCHES = [
  '"',
  '"unterminated phrase',
  "NEAR(",
  "a NEAR/2 b",
  "*",
  "pre*",
  "col:",
  "title:site",
  "(",
  ")",
  "AND OR NOT",
  "NOT",
  "^site",
  "-site",
  "+",
  "' OR 1=1 --",
  '"; DROP TABLE users;--',
  "\u0000",
  "\ud800",
  "👩🏽‍💻",
  "\u202E",
  "x".repeat(200),
];

const WRONG_TYPES: unknown[] = [
  123,
  -1,
  1.5,
  true,
  false,
  [],
  ["x"],
  {},
  { $ne: null },
  JSON.parse('{"__proto__":{"admin":true}}'),
];

/** JSON values a field must refuse. */
export function refusedJson(kind: Kind): unknown[] {
  const huge = "x".repeat(100_000);
  switch (kind.type) {
    case "text": {
      const values: unknown[] = [
        ...WRONG_TYPES,
        [padded("lista", kind.min)],
        "x".repeat(kind.max + 1),
        huge,
        ...UNTYPEABLE.map((s) => padded(s, kind.min)),
      ];
      if (kind.min > 1) values.push("x".repeat(kind.min - 1), ` ${"x".repeat(kind.min - 1)} `);
      if (kind.required) values.push(null, "", "   ", "\t\n");
      return values;
    }
    case "int": {
      const values: unknown[] = [
        kind.min - 1,
        kind.max + 1,
        1.5,
        kind.min + 0.5,
        1e20,
        -1e20,
        Number.MAX_SAFE_INTEGER + 2,
        "1e20",
        "99999999999999999999",
        "NaN",
        "Infinity",
        "-Infinity",
        "1.5",
        "1,5",
        "12abc",
        "0x10",
        "١٢",
        "½",
        true,
        false,
        [],
        [5],
        {},
        { value: 5 },
        huge,
      ];
      if (kind.required) values.push(null, "", "  ");
      return values;
    }
    case "enum": {
      const first = kind.values[0]!;
      const values: unknown[] = [
        123,
        true,
        [],
        [first],
        {},
        first.toUpperCase(),
        `${first} `,
        `${first}\u0000`,
        `\u202E${first}`,
        "' OR 1=1 --",
        "<script>alert(1)</script>",
        huge,
      ];
      if (kind.required) values.push(null, "");
      return values;
    }
    case "tags":
      return [
        123,
        true,
        {},
        [1],
        [null],
        [{}],
        [["ab"]],
        "a",
        ["a"],
        ["x".repeat(31)],
        Array.from({ length: kind.max + 1 }, (_, i) => `tag${i}`),
        Array.from({ length: kind.max + 1 }, (_, i) => `tag${i}`).join(","),
        ["ok\u0000"],
        ["ab\ud800"],
        huge,
      ];
    case "date": {
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      return [
        123,
        true,
        [],
        {},
        day(-3),
        day(3 * 365),
        "2027-02-30",
        "2027-13-01",
        "0000-00-00",
        "hoje",
        "01/02/2027",
        "2027-1-1",
        `${day(10)}T00:00:00Z`,
        "' OR 1=1 --",
        huge,
      ];
    }
    case "email":
      return [
        123,
        true,
        [],
        {},
        null,
        "",
        "sem-arroba",
        "a@",
        "@b.com",
        "a b@c.com",
        `${"x".repeat(250)}@a.com`,
        "' OR 1=1 --",
        "<script>@x.com",
        "a@b.com\u0000",
        huge,
      ];
    case "password":
      return [12345678, true, [], {}, null, "", "curta", "x".repeat(73), "é".repeat(37), huge];
    case "key":
      return [123, true, [], {}, null, "", "x".repeat(kind.max + 1), huge];
    case "ids":
      return ["x", 1, {}, [1], [null], [{}], [[]], ["x".repeat(101)], Array.from({ length: 501 }, () => "x")];
  }
}

/** Form strings (url-encoded or multipart) a field must refuse. */
export function refusedForm(kind: Kind, price = false): string[] {
  const huge = "x".repeat(100_000);
  if (price) {
    return [
      "",
      "abc",
      "-1",
      "0",
      "0,00",
      "1e20",
      "NaN",
      "1.000.000,01",
      "99999999999999999999",
      "1,2,3",
      "R$",
      "12abc",
      "١٢",
      huge,
    ];
  }
  switch (kind.type) {
    case "text": {
      const values = ["x".repeat(kind.max + 1), huge, padded("\u0000", kind.min), padded("\u001b[2J", kind.min)];
      if (kind.min > 1) values.push("x".repeat(kind.min - 1));
      if (kind.required) values.push("", "   ");
      return values;
    }
    case "int": {
      const values = [
        String(kind.min - 1),
        String(kind.max + 1),
        "abc",
        "1.5",
        "1e20",
        "99999999999999999999",
        "NaN",
        "١٢",
      ];
      if (kind.required) values.push("");
      return values;
    }
    case "enum":
      return ["xyz", `${kind.values[0]!.toUpperCase()}`, "' OR 1=1 --", huge, ...(kind.required ? [""] : [])];
    case "tags":
      return ["a", Array.from({ length: kind.max + 1 }, (_, i) => `tag${i}`).join(","), "x".repeat(31), "ok\u0000"];
    case "date":
      return ["2020-01-01", "hoje", "2027-02-30", huge];
    case "email":
      return ["", "sem-arroba", `${"x".repeat(250)}@a.com`, "a@b.com\u0000", huge];
    case "password":
      return ["", "curta", "x".repeat(73), huge];
    case "key":
      return ["", "x".repeat(kind.max + 1)];
    case "ids":
      return ["x".repeat(101)];
  }
}

/**
 * Ids that name nothing: uuid-like, malformed (not a uuid), huge (overlong), with NUL and other
 * control characters, in other scripts and symbols (unicode), or trying to leave their folder.
 * Every case that puts an id in a path goes through all of them, on both engines.
 */
export const BAD_IDS = [
  "00000000-0000-4000-8000-00000000000%00",
  "a%00b",
  "%01%1B%7F",
  "%C2%85",
  "00000000-0000-4000-8000-000000000000%20",
  "00000000-0000-4000-8000-0000000000000",
  "çãõ-ñ",
  "%D9%A1%D9%A2",
  `${"0".repeat(8)}-${"0".repeat(4)}-4000-8000-${"0".repeat(300)}`,
  "00000000-0000-4000-8000-000000000000",
  "3f2c1e9a-7b4d-4c8e-9a1f-2b3c4d5e6f70",
  "not-a-uuid",
  "1",
  "-1",
  "' OR 1=1 --",
  "..%2F..%2Fetc%2Fpasswd",
  "%2e%2e%2f%2e%2e%2f",
  "%252e%252e%252f",
  "%00",
  "%E2%80%AE",
  "%F0%9F%9A%80",
  "x".repeat(10_000),
];
