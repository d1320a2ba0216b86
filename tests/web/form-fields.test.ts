import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveInputSchema } from "~/lib/admin-schemas";
import { formFields } from "~/lib/form-fields";
import { LIMITS } from "~/lib/limits";
import { opportunityInputSchema } from "~/lib/market-schemas";
import { milestoneInputSchema } from "~/lib/payments-schemas";
import { profileSchema } from "~/lib/schemas";

describe("formFields", () => {
  it("takes each field's name, limits and whether it is required from the schema the service parses", () => {
    const f = formFields(opportunityInputSchema);
    expect(f.title).toEqual({
      name: "title",
      required: true,
      minLength: LIMITS.title.min,
      maxLength: LIMITS.title.max,
    });
    expect(f.description).toMatchObject({ required: true, maxLength: LIMITS.description.max });
    // Optional (a default, or empty allowed) is not required; numbers carry their bounds.
    expect(f.vacancies).toMatchObject({ name: "vacancies", min: 1, max: 20 });
    expect(f.vacancies.required).toBeUndefined();
    expect(f.city).toMatchObject({ minLength: LIMITS.city.min, maxLength: LIMITS.city.max });
    expect(f.city.required).toBeUndefined();
    expect(f.category).toEqual({ name: "category", required: true });

    const m = formFields(milestoneInputSchema);
    expect(m.days).toMatchObject({ required: true, min: 1, max: 365 });
    expect(formFields(profileSchema).bio).toMatchObject({ maxLength: LIMITS.bio.max });
    // A refined object (rules across fields) gives its fields too; optional there, not required.
    expect(formFields(resolveInputSchema).reason).toEqual({
      name: "reason",
      minLength: LIMITS.moderation_reason.min,
      maxLength: LIMITS.moderation_reason.max,
    });
    expect(formFields(z.object({ code: z.string().min(6).max(6) })).code).toEqual({
      name: "code",
      required: true,
      minLength: 6,
      maxLength: 6,
    });
  });

  it("keeps what was typed after a refusal over the saved value, with the field's error", () => {
    const saved = { title: "Loja virtual da padaria", skills: ["react", "css"], vacancies: 3 };
    const fresh = formFields(opportunityInputSchema, null, saved);
    expect(fresh.title.defaultValue).toBe("Loja virtual da padaria");
    expect(fresh.skills.defaultValue).toBe("react, css");
    expect(fresh.vacancies.defaultValue).toBe("3");
    expect(fresh.title.error).toBeUndefined();

    const refused = formFields(
      opportunityInputSchema,
      { values: { title: "Loja" }, errors: { title: "O título deve ter entre 5 e 120 caracteres." } },
      saved,
    );
    expect(refused.title).toMatchObject({ defaultValue: "Loja", error: "O título deve ter entre 5 e 120 caracteres." });
    expect(refused.skills.defaultValue).toBe("react, css");
  });

  it("names only the schema's fields (a renamed field does not compile)", () => {
    const f = formFields(milestoneInputSchema);
    // @ts-expect-error -- no such field in the schema
    expect(f.titel).toBeUndefined();
    const name: "title" = f.title.name;
    expect(name).toBe("title");
    // @ts-expect-error -- the saved record's keys are the schema's too
    formFields(milestoneInputSchema, null, { titel: "x" });
  });
});
