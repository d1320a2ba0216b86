import { json } from "@remix-run/node";
import { centsToInput } from "~/lib/money";
import { SERVICE_LIMITS } from "~/lib/service-schemas";
import type { UserRow } from "../../db/schema";
import { publishService, type ServiceJson } from "~/services/catalog/services.server";
import { AppError } from "~/services/platform/errors.server";
import { fixedT } from "~/services/platform/i18n.server";
import { formValues, readForm } from "./bodies.server";
import { getRequestT } from "./i18n.server";
import { marketFormError, priceInput, type PriceFields } from "./market-forms.server";
import { redirectWithError, redirectWithSuccess } from "./toast.server";

// Page glue for the freelancer's service form (/meus-servicos/novo, /meus-servicos/:id): its
// fields are flat (`packages.1.price`, `questions.0.kind`), prices typed in reais. The form
// becomes the service's input (the lists as arrays, prices in centavos), and the service's
// refusals (`packages.1.price_cents`) land back on the field the user typed in.

/** The form's lists, each with its fields and the one typed in reais. */
export const SERVICE_FORM_LISTS = {
  packages: { fields: ["name", "includes", "price", "delivery_days", "revisions"], max: SERVICE_LIMITS.packages.max },
  extras: { fields: ["title", "price", "extra_days"], max: SERVICE_LIMITS.extras },
  faq: { fields: ["question", "answer"], max: SERVICE_LIMITS.faq },
  questions: { fields: ["text", "kind", "choices", "required"], max: SERVICE_LIMITS.questions },
} as const;

export type ServiceFormList = keyof typeof SERVICE_FORM_LISTS;
const LIST_NAMES = Object.keys(SERVICE_FORM_LISTS) as ServiceFormList[];

/** How many rows of each list the form holds: the hidden `<list>_rows`, else the highest index typed. */
export function rowCounts(values: Record<string, string>): Record<ServiceFormList, number> {
  const counts = {} as Record<ServiceFormList, number>;
  for (const list of LIST_NAMES) {
    const declared = Number(values[`${list}_rows`]);
    const typed = Object.keys(values)
      .map((key) => new RegExp(`^${list}\\.(\\d{1,2})\\.`).exec(key)?.[1])
      .filter((i): i is string => i !== undefined)
      .map((i) => Number(i) + 1);
    const count = Number.isInteger(declared) && declared >= 0 ? declared : Math.max(0, ...typed);
    // A hand-made form naming more rows than the list may hold gets one row past it: the service
    // refuses the list's length with its own message.
    counts[list] = Math.min(count, SERVICE_FORM_LISTS[list].max + 1);
  }
  return counts;
}

/** The price fields of the rows the form holds (`packages.0.price` → `packages.0.price_cents`). */
function pricesOf(counts: Pick<Record<ServiceFormList, number>, "packages" | "extras">): PriceFields {
  const prices: PriceFields = {};
  for (const list of ["packages", "extras"] as const) {
    for (let i = 0; i < counts[list]; i++) prices[`${list}.${i}.price`] = `${list}.${i}.price_cents`;
  }
  return prices;
}

/** The service's input from the form: its plain fields, and each list's rows in order (prices in centavos). */
export function serviceFormInput(values: Record<string, string>) {
  const counts = rowCounts(values);
  const flat = priceInput(values, pricesOf(counts), { required: true });
  const input: Record<string, unknown> = {
    title: values.title,
    category: values.category,
    description: values.description,
    skills: values.skills,
  };
  for (const list of LIST_NAMES) {
    input[list] = Array.from({ length: counts[list] }, (_, i) => {
      const row: Record<string, unknown> = {};
      for (const field of SERVICE_FORM_LISTS[list].fields) {
        const name = field === "price" ? "price_cents" : field;
        const value = flat[`${list}.${i}.${name}`];
        if (value !== undefined) row[name] = value;
      }
      // An unchecked box is not posted: not required.
      if (list === "questions") row.required = values[`questions.${i}.required`] === "1";
      return row;
    });
  }
  return input;
}

/** Every price field the form can hold, for moving the service's refusals onto them. */
export const SERVICE_FORM_PRICES = pricesOf({
  packages: SERVICE_FORM_LISTS.packages.max + 1,
  extras: SERVICE_FORM_LISTS.extras.max + 1,
});

/** A refusal of the service, as the form's data (the price errors on the fields in reais). */
export function serviceFormError(request: Request, error: unknown, values: Record<string, string>) {
  return marketFormError(request, error, values, SERVICE_FORM_PRICES);
}

/** A stored service as the form's values (prices in reais, lines one per line). */
export function serviceFormValues(s: ServiceJson): Record<string, string> {
  const values: Record<string, string> = {
    title: s.title,
    category: s.category,
    description: s.description,
    skills: s.skills.join(", "),
    packages_rows: String(s.packages.length),
    extras_rows: String(s.extras.length),
    faq_rows: String(s.faq.length),
    questions_rows: String(s.questions.length),
  };
  s.packages.forEach((p, i) => {
    Object.assign(values, {
      [`packages.${i}.name`]: p.name,
      [`packages.${i}.includes`]: p.includes.join("\n"),
      [`packages.${i}.price`]: centsToInput(p.price_cents),
      [`packages.${i}.delivery_days`]: String(p.delivery_days),
      [`packages.${i}.revisions`]: String(p.revisions),
    });
  });
  s.extras.forEach((e, i) => {
    Object.assign(values, {
      [`extras.${i}.title`]: e.title,
      [`extras.${i}.price`]: centsToInput(e.price_cents),
      [`extras.${i}.extra_days`]: String(e.extra_days),
    });
  });
  s.faq.forEach((f, i) => {
    Object.assign(values, { [`faq.${i}.question`]: f.question, [`faq.${i}.answer`]: f.answer });
  });
  s.questions.forEach((q, i) => {
    Object.assign(values, {
      [`questions.${i}.text`]: q.text,
      [`questions.${i}.kind`]: q.kind,
      [`questions.${i}.choices`]: "choices" in q ? (q.choices ?? []).join("\n") : "",
      ...(q.required && { [`questions.${i}.required`]: "1" }),
    });
  });
  return values;
}

/**
 * The form's steps that come back to the page instead of saving (plain forms): `add:<list>` adds
 * an empty row (up to the list's limit), `remove:<list>:<i>` takes row i out and moves the later
 * ones up; what was typed stays. Null for any other intent.
 */
export async function serviceFormStep(request: Request) {
  // Only a plain form has steps; anything else is read (and refused) by the action itself.
  if (!/^application\/x-www-form-urlencoded/i.test(request.headers.get("Content-Type") ?? "")) return null;
  const values = formValues(await readForm(request.clone()).catch(() => new FormData()));
  const [step, list, index] = (values.intent ?? "").split(":") as [string, ServiceFormList, string | undefined];
  if ((step !== "add" && step !== "remove") || !Object.hasOwn(SERVICE_FORM_LISTS, list)) return null;
  const counts = rowCounts(values);
  const { intent: _intent, ...kept } = values;
  if (step === "add") {
    if (counts[list] >= SERVICE_FORM_LISTS[list].max) {
      const { t } = await getRequestT(request);
      return json(
        {
          message: t(`services:${list}_count`),
          values: kept,
          errors: { [`${list}_add`]: t(`services:${list}_count`) },
        },
        { status: 422 },
      );
    }
    return json({ values: { ...kept, [`${list}_rows`]: String(counts[list] + 1) } });
  }
  const removed = Number(index);
  if (!Number.isInteger(removed) || removed < 0 || removed >= counts[list]) return json({ values: kept });
  const next: Record<string, string> = {};
  for (const [key, value] of Object.entries(kept)) {
    const match = new RegExp(`^${list}\\.(\\d{1,2})\\.(.+)$`).exec(key);
    if (!match) next[key] = value;
    else if (Number(match[1]) < removed) next[key] = value;
    else if (Number(match[1]) > removed) next[`${list}.${Number(match[1]) - 1}.${match[2]}`] = value;
  }
  next[`${list}_rows`] = String(counts[list] - 1);
  return json({ values: next });
}

/** Post/redirect/get with a toast of the `services` namespace in the visitor's language. */
export async function redirectWithServicesToast(request: Request, to: string, key: string) {
  const { lng } = await getRequestT(request);
  return redirectWithSuccess(to, fixedT(lng, "services")(key));
}

/**
 * "Salvar e publicar", once the form is saved: published (or pending) back to the list; refused
 * (the limit of 20, a state that moved on), the saved draft's page with the reason, so a second
 * submit does not save it twice.
 */
export async function publishSaved(request: Request, user: UserRow, id: string) {
  try {
    await publishService(user, id);
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 409) throw error;
    const { lng } = await getRequestT(request);
    return redirectWithError(`/meus-servicos/${id}`, fixedT(lng)(error.key, error.params));
  }
  return redirectWithServicesToast(request, "/meus-servicos", "service_published");
}
