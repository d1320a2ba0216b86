import { describe, expect, it } from "vitest";
import {
  applyInputSchema,
  offerInputSchema,
  opportunityInputSchema,
  opportunityPatchSchema,
  opportunityQuerySchema,
  todayInSaoPaulo,
} from "~/lib/market-schemas";
import { fieldErrorsOf } from "~/services/platform/errors.server";
import { validApplication, validOpportunity } from "../support/market";

function errorsOf(schema: { safeParse: (v: unknown) => any }, input: unknown) {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrorsOf(result.error);
}

const opp = (patch: Record<string, unknown>) => errorsOf(opportunityInputSchema, { ...validOpportunity, ...patch });

function addDays(date: string, days: number) {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

describe("opportunity bounds (docs/product.md §2)", () => {
  it("accepts a valid opportunity and fills the defaults", () => {
    const parsed = opportunityInputSchema.parse({ ...validOpportunity, vacancies: undefined });
    expect(parsed.vacancies).toBe(1);
    expect(parsed.skills).toEqual(["Shopify", "Pix"]);
  });

  it.each([
    ["title", "x".repeat(4), "title_length"],
    ["title", "x".repeat(121), "title_length"],
    ["title", "     ", "title_length"],
    ["description", "x".repeat(19), "description_length"],
    ["description", "x".repeat(5001), "description_length"],
    ["category", "culinaria", "category_invalid"],
    ["skills", Array.from({ length: 11 }, (_, i) => `skill${i}`), "opportunity_skills_invalid"],
    ["skills", ["a"], "opportunity_skills_invalid"],
    ["budget_type", "monthly", "budget_type_invalid"],
    ["budget_min_cents", 0, "budget_min_invalid"],
    ["budget_min_cents", 10.5, "budget_min_invalid"],
    ["budget_min_cents", "abc", "budget_min_invalid"],
    ["budget_max_cents", 100_000_001, "budget_max_invalid"],
    ["location_type", "moon", "location_type_invalid"],
    ["vacancies", 0, "vacancies_invalid"],
    ["vacancies", 21, "vacancies_invalid"],
    ["deadline", "2025-02-30", "deadline_invalid"],
    ["deadline", "amanhã", "deadline_invalid"],
  ])("%s = %j → %s", (field, value, key) => {
    expect(opp({ [field]: value })[field]).toBe(key);
  });

  it.each([
    ["title", "x".repeat(5)],
    ["title", "x".repeat(120)],
    ["description", "x".repeat(20)],
    ["description", "x".repeat(5000)],
    ["skills", Array.from({ length: 10 }, (_, i) => `skill${i}`)],
    ["skills", "React, Figma"],
    ["budget_min_cents", 1],
    ["budget_max_cents", 100_000_000],
    ["budget_max_cents", "450000"],
    ["vacancies", 20],
    ["vacancies", "3"],
    ["deadline", ""],
    ["deadline", null],
  ])("%s = %j is accepted", (field, value) => {
    expect(opp({ [field]: value })).toEqual({});
  });

  it("the maximum budget cannot be below the minimum", () => {
    expect(opp({ budget_min_cents: 5000, budget_max_cents: 4999 })).toEqual({ budget_max_cents: "budget_range" });
    expect(opp({ budget_min_cents: 5000, budget_max_cents: 5000 })).toEqual({});
  });

  it("a city is required unless the work is remote", () => {
    expect(opp({ location_type: "onsite" })).toEqual({ city: "city_required" });
    expect(opp({ location_type: "hybrid", city: "" })).toEqual({ city: "city_required" });
    expect(opp({ location_type: "hybrid", city: "Recife" })).toEqual({});
    expect(opp({ location_type: "remote", city: "" })).toEqual({});
  });

  it("checks the rules across fields in the same pass as the fields: every problem at once", () => {
    expect(
      opp({
        title: "oi",
        budget_min_cents: 5000,
        budget_max_cents: 4999,
        deadline: "2001-01-01",
        location_type: "onsite",
        city: "",
      }),
    ).toEqual({
      title: "title_length",
      deadline: "deadline_range",
      budget_max_cents: "budget_range",
      city: "city_required",
    });
    // A rule needs its fields: with the maximum refused on its own, it keeps that message.
    expect(opp({ budget_min_cents: 5000, budget_max_cents: "x" })).toEqual({ budget_max_cents: "budget_max_invalid" });
  });

  it("the deadline runs from today (São Paulo) to two years ahead", () => {
    const today = todayInSaoPaulo();
    expect(opp({ deadline: today })).toEqual({});
    expect(opp({ deadline: addDays(today, -1) })).toEqual({ deadline: "deadline_range" });
    expect(opp({ deadline: addDays(today, 700) })).toEqual({});
    expect(opp({ deadline: addDays(today, 740) })).toEqual({ deadline: "deadline_range" });
  });

  it("a patch checks only the fields it carries", () => {
    expect(opportunityPatchSchema.parse({ title: "Novo título ok" })).toEqual({ title: "Novo título ok" });
    expect(errorsOf(opportunityPatchSchema, { title: "abc", vacancies: 30 })).toEqual({
      title: "title_length",
      vacancies: "vacancies_invalid",
    });
  });
});

describe("application and offer bounds", () => {
  it.each([
    ["cover_letter", "x".repeat(19), "cover_letter_length"],
    ["cover_letter", "x".repeat(5001), "cover_letter_length"],
    ["price_cents", 0, "price_invalid"],
    ["price_cents", 100_000_001, "price_invalid"],
    ["price_cents", 1.5, "price_invalid"],
    ["delivery_days", 0, "delivery_days_invalid"],
    ["delivery_days", 366, "delivery_days_invalid"],
  ])("application %s = %j → %s", (field, value, key) => {
    expect(errorsOf(applyInputSchema, { ...validApplication, [field]: value })[field]).toBe(key);
  });

  it("accepts the edges", () => {
    for (const patch of [
      { cover_letter: "x".repeat(20) },
      { cover_letter: "x".repeat(5000) },
      { price_cents: 1 },
      { price_cents: 100_000_000 },
      { delivery_days: 1 },
      { delivery_days: 365 },
    ]) {
      expect(errorsOf(applyInputSchema, { ...validApplication, ...patch })).toEqual({});
    }
  });

  it("offers: terms within bounds and a message of at most 2000 characters", () => {
    expect(errorsOf(offerInputSchema, { price_cents: 1, delivery_days: 365, message: "x".repeat(2000) })).toEqual({});
    expect(errorsOf(offerInputSchema, { price_cents: 1, delivery_days: 1, message: "" })).toEqual({});
    expect(errorsOf(offerInputSchema, { delivery_days: 1, message: "x".repeat(2001) })).toEqual({
      price_cents: "price_invalid",
      message: "offer_message_length",
    });
  });
});

describe("list query", () => {
  it("defaults and empty form fields", () => {
    expect(opportunityQuerySchema.parse({ q: "", category: "", sort: "" })).toEqual({
      sort: "newest",
      page: 1,
      per_page: 20,
    });
  });

  it.each([
    ["sort", "random", "sort_invalid"],
    ["status", "deleted", "status_invalid"],
    ["category", "x", "category_invalid"],
    ["page", "0", "page_invalid"],
    ["page", "abc", "page_invalid"],
    ["per_page", "101", "per_page_invalid"],
    ["budget_min_cents", "-5", "budget_filter_invalid"],
    ["mine", "yes please", "mine_invalid"],
    ["q", "x".repeat(201), "query_invalid"],
  ])("%s = %s → %s", (field, value, key) => {
    expect(errorsOf(opportunityQuerySchema, { [field]: value })[field]).toBe(key);
  });
});
