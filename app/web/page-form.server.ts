import type { ActionFunctionArgs } from "@remix-run/node";
import { formValues, readForm } from "./bodies.server";
import { assertSameOrigin } from "./csrf.server";
import { formError } from "./errors.server";

/**
 * The action of a visitor's form (login, registration, password reset): a write from another
 * site is refused, the form is read (415/413/400 shown on the form), and a refusal comes back
 * as the form again with its messages and what was typed (passwords excepted).
 *
 * Called inside the route's `export async function action`, never at a page module's top level:
 * the browser runs a page module's top level too, and this module is not in its bundle.
 */
export async function visitorFormAction<T>(
  { request }: ActionFunctionArgs,
  handle: (ctx: { request: Request; values: Record<string, string> }) => Promise<T>,
) {
  assertSameOrigin(request);
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    return await handle({ request, values });
  } catch (error) {
    return formError(request, error, values);
  }
}
