import { redirect } from "@remix-run/node";
import { fixedT } from "~/services/platform/i18n.server";
import { getRequestT } from "./i18n.server";
import { formValues, readFilesForm, readForm, type FilesForm } from "./bodies.server";
import { marketFormError, requireConfirmed, type PriceFields } from "./market-forms.server";
import { redirectWithSuccess } from "./toast.server";

// The action of a page whose forms tell themselves apart by a hidden `intent` (a contract, a
// negotiation, an opportunity): each intent is declared once with the service call it makes, the
// toast it shows and where it goes, instead of a switch that repeats the reading, the confirmation
// step, the redirect and the refusal for every case.

export type IntentInput = { values: Record<string, string>; files: File[]; form: FormData };

export type PageIntent<R> = {
  /** Carried out only from its confirmation step (`?confirm=<intent>`, see requireConfirmed). */
  confirm?: boolean;
  run: (input: IntentInput) => Promise<R>;
  /** The success toast: a key of the page's namespace (`toasts`), or one with its values from what `run` returned; none unless told. */
  toast?: string | ((result: R, lng: string) => [key: string, values: Record<string, unknown>]);
  /** Where to go once done: the page itself unless told. */
  to?: string | ((result: R) => string);
};

/** An intent whose `to` is computed from what `run` returned (TypeScript infers the result's type here). */
export function withResult<R>(intent: PageIntent<R>): PageIntent<R> {
  return intent;
}

type IntentActionOptions = {
  /** The page's address: where a done or unknown intent leads, and the confirmation steps' base. */
  here: string;
  /**
   * How the body is read: a plain form, one carrying files within these limits (DELIVERY_FORM),
   * or by a reader of its own (a photo's form).
   */
  body?: "form" | FilesForm | ((request: Request) => Promise<FormData>);
  /** Price fields typed in reais (see priceInput), so refusals land on the field the user typed. */
  prices?: PriceFields;
  /** The namespace of the toasts' keys. */
  toasts?: "market" | "admin" | "messages" | "services";
  /** What a post naming none of the intents does (a form older than them); unless told, back to the page. */
  otherwise?: PageIntent<unknown>;
};

/**
 * Reads the form, carries out its intent and answers with post/redirect/get and a toast; a
 * refusal comes back as the form's data (message, field errors, what was typed). An unknown
 * intent goes back to the page.
 */
export async function intentAction<T extends Record<string, unknown>>(
  request: Request,
  { here, body = "form", prices = {}, toasts = "market", otherwise }: IntentActionOptions,
  intents: { [K in keyof T]: PageIntent<T[K]> },
) {
  let values: Record<string, string> = {};
  try {
    let files: File[] = [];
    let form: FormData;
    if (typeof body === "function") values = formValues((form = await body(request)));
    else if (body !== "form") ({ form, values, files } = await readFilesForm(request, body));
    else values = formValues((form = await readForm(request)));
    const name = values.intent ?? "";
    // Each intent's result type is its own; here they are all only handed back to their `to`.
    const intent = Object.hasOwn(intents, name) ? (intents[name as keyof T] as PageIntent<unknown>) : otherwise;
    if (!intent) return redirect(here);
    if (intent.confirm) requireConfirmed(values, `${here}?confirm=${name}`);
    const result = await intent.run({ values, files, form });
    const to = typeof intent.to === "function" ? intent.to(result) : (intent.to ?? here);
    if (!intent.toast) return redirect(to);
    const { lng } = await getRequestT(request);
    const [key, toastValues] = typeof intent.toast === "function" ? intent.toast(result, lng) : [intent.toast, {}];
    return redirectWithSuccess(to, fixedT(lng, toasts)(key, toastValues));
  } catch (error) {
    return marketFormError(request, error, values, prices);
  }
}
