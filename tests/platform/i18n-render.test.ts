// Page renders translate through one i18next instance per language whose answers are remembered
// (app/services/platform/i18n-render.server.ts). Remembered or not, every call must give what i18next
// itself gives: labels, plurals, interpolated values, another language or namespace asked for.
import i18next, { type TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { i18nOptions } from "~/services/platform/i18n.server";
import { i18nFor } from "~/services/platform/i18n-render.server";

async function plainT(lng: string, ns: string): Promise<TFunction> {
  const instance = i18next.createInstance();
  await instance.init({ ...i18nOptions, lng });
  return instance.getFixedT(lng, ns);
}

type Call = [key: string, options?: Record<string, unknown>];
const calls: Call[] = [
  ["list.view"],
  ["list.no_deadline"],
  ["categories.design"],
  ["list.applications", { count: 0 }],
  ["list.applications", { count: 1 }],
  ["list.applications", { count: 2 }],
  ["list.applications", { count: 1 }],
  ["list.hired", { accepted: 1, vacancies: 3 }],
  ["list.hired", { accepted: 2, vacancies: 3 }],
  ["list.published", { date: "3 de mar. de 2026" }],
  ["list.published", { date: "4 de mar. de 2026" }],
  ["list.deadline", { date: "3 de mar. de 2026" }],
  // A number and the same digits as text are different values.
  ["list.applications", { count: "1" }],
  // Another language or namespace than the fixed one.
  ["list.view", { lng: "en" }],
  ["list.applications", { count: 2, lng: "en" }],
  ["nav.opportunities", { ns: "common" }],
  ["topbar.greeting", { ns: "common", name: "Ana" }],
  ["topbar.greeting", { ns: "common", name: "Júlia" }],
  // Objects among the options are not remembered, and still answered.
  ["topbar.greeting", { ns: "common", name: "Bia", interpolation: { escapeValue: true } }],
  ["no.such.key"],
];

describe("the render's i18next instances", () => {
  for (const lng of ["pt-BR", "en"]) {
    it(`answer every call as i18next does, the first time and again (${lng})`, async () => {
      const expected = await plainT(lng, "market");
      const t = (await i18nFor(lng)).getFixedT(lng, "market");
      for (let round = 0; round < 2; round++) {
        for (const [key, options] of calls) {
          expect(t(key, options as never), `${key} ${JSON.stringify(options)} round ${round}`).toBe(
            expected(key, options as never),
          );
        }
      }
      expect(t("list.applications", { count: 1 })).not.toBe(t("list.applications", { count: 2 }));
    });
  }

  it("stays right when values come and go past what it keeps", async () => {
    const expected = await plainT("pt-BR", "common");
    const t = (await i18nFor("pt-BR")).getFixedT("pt-BR", "common");
    for (let i = 0; i < 2_500; i++) expect(t("topbar.greeting", { name: `Pessoa ${i}` })).toBe(`Olá, Pessoa ${i}`);
    for (const i of [0, 1_000, 2_499])
      expect(t("topbar.greeting", { name: `Pessoa ${i}` })).toBe(expected("topbar.greeting", { name: `Pessoa ${i}` }));
  });
});
