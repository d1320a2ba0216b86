import { describe, expect, it } from "vitest";
import { marketFormError, priceInput, reaisToCents, readWithoutRefused } from "~/web/market-forms.server";
import { applyInputSchema, opportunityInputSchema, opportunityPatchSchema } from "~/lib/market-schemas";
import { AppError, fieldErrorsOf } from "~/services/platform/errors.server";

const request = new Request("http://localhost/opportunities/create", { method: "POST" });

describe("priceInput", () => {
  it("turns reais typed the Brazilian way into the service's centavos", () => {
    const input = priceInput(
      { cover_letter: "Tenho experiência com sites de padaria.", price: "R$ 1.500,50", delivery_days: "10" },
      { price: "price_cents" },
    );
    expect(input).toEqual({
      cover_letter: "Tenho experiência com sites de padaria.",
      price_cents: 150_050,
      delivery_days: "10",
    });
  });

  it("hands a price that is not one to the service as NaN, which it refuses with the other fields' problems", () => {
    const input = priceInput(
      { cover_letter: "curta", price: "mil reais", delivery_days: "10" },
      { price: "price_cents" },
    );
    expect(input.price_cents).toBeNaN();
    const refused = applyInputSchema.safeParse(input);
    expect(refused.success).toBe(false);
    expect(fieldErrorsOf(refused.error!)).toEqual({
      price_cents: "price_invalid",
      cover_letter: "cover_letter_length",
    });
  });

  it("leaves an empty price to the schema, unless the form requires it", () => {
    expect(priceInput({ budget_min: " " }, { budget_min: "budget_min_cents" })).toEqual({});
    const input = priceInput({ budget_min: "" }, { budget_min: "budget_min_cents" }, { required: true });
    expect(opportunityPatchSchema.safeParse(input).success).toBe(false);
  });

  it("lets the rules across fields run with a price refused: every problem in one answer", () => {
    const input = priceInput(
      {
        title: "Site da padaria",
        description: "Um site com cardápio e encomendas para a padaria do bairro.",
        category: "desenvolvimento",
        budget_type: "fixed",
        budget_min: "abc",
        budget_max: "99999999999999",
        deadline: "2001-01-01",
        location_type: "onsite",
        city: "",
      },
      { budget_min: "budget_min_cents", budget_max: "budget_max_cents" },
    );
    const refused = opportunityInputSchema.safeParse(input);
    expect(refused.success).toBe(false);
    expect(fieldErrorsOf(refused.error!)).toEqual({
      budget_min_cents: "budget_min_invalid",
      budget_max_cents: "budget_max_invalid",
      deadline: "deadline_range",
      city: "city_required",
    });
  });
});

describe("marketFormError", () => {
  it("puts the service's *_cents errors back on the price fields, translated, keeping what was typed", async () => {
    const error = new AppError(422, "validation_failed", { budget_max_cents: "budget_range", title: "title_length" });
    const response = await marketFormError(
      request,
      error,
      { title: "Abc", budget_max: "10" },
      {
        budget_min: "budget_min_cents",
        budget_max: "budget_max_cents",
      },
    );
    expect(response.status).toBe(422);
    const body = (await response.json()) as { errors: Record<string, string>; values: Record<string, string> };
    expect(Object.keys(body.errors).sort()).toEqual(["budget_max", "title"]);
    expect(body.errors.budget_max).not.toBe("budget_range");
    expect(body.values).toEqual({ title: "Abc", budget_max: "10" });
  });

  it("says how to type a price that is none, and keeps the range for one out of bounds", async () => {
    const error = new AppError(422, "validation_failed", {
      budget_min_cents: "budget_min_invalid",
      budget_max_cents: "budget_max_invalid",
    });
    const response = await marketFormError(
      request,
      error,
      { budget_min: "mil", budget_max: "99999999999999" },
      { budget_min: "budget_min_cents", budget_max: "budget_max_cents" },
    );
    const body = (await response.json()) as { errors: Record<string, string> };
    expect(body.errors.budget_min).toBe("Informe um valor em reais, como 1.500,00.");
    expect(body.errors.budget_max).toBe("O orçamento máximo deve ser um valor entre R$ 0,01 e R$ 1.000.000,00.");
  });

  it("lets anything that is not a refusal through", async () => {
    await expect(marketFormError(request, new Error("boom"), {})).rejects.toThrow("boom");
  });
});

describe("reaisToCents", () => {
  it("converts the prices, names the ones that are not, and leaves empty ones out", () => {
    const prices = { budget_min: "budget_min_cents", budget_max: "budget_max_cents" } as const;
    expect(reaisToCents({ q: "site", budget_min: "R$ 10,50", budget_max: "muito" }, prices)).toEqual({
      input: { q: "site", budget_min_cents: 1050 },
      invalid: ["budget_max"],
    });
    expect(reaisToCents({ budget_min: " " }, prices)).toEqual({ input: {}, invalid: [] });
    expect(reaisToCents({ budget_min: "" }, prices, { required: true }).invalid).toEqual(["budget_min", "budget_max"]);
  });
});

describe("readWithoutRefused", () => {
  it("reads again without the fields the service refused, and says which", async () => {
    const seen: Record<string, unknown>[] = [];
    const read = async (query: Record<string, unknown>) => {
      seen.push({ ...query });
      if ("sort" in query) throw new AppError(422, "validation_failed", { sort: "sort_invalid" });
      return ["ok"];
    };
    expect(await readWithoutRefused({ q: "site", sort: "x" }, read)).toEqual({
      list: ["ok"],
      refused: { sort: "sort_invalid" },
    });
    expect(seen).toEqual([{ q: "site", sort: "x" }, { q: "site" }]);
  });

  it("lets any other error through, and reads at most twice", async () => {
    await expect(
      readWithoutRefused({}, async () => Promise.reject(new AppError(404, "not_found"))),
    ).rejects.toMatchObject({ status: 404 });
    let reads = 0;
    const stubborn = async () => {
      reads++;
      throw new AppError(422, "validation_failed", { page: "bad" });
    };
    await expect(readWithoutRefused({ page: "0" }, stubborn)).rejects.toMatchObject({ status: 422 });
    expect(reads).toBe(2);
  });
});
