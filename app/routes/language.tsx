import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { supportedLngs, type Lng } from "~/lib/i18n";
import { assertSameOrigin, safeRedirect } from "~/web/auth.server";
import { formError } from "~/web/errors.server";
import { readForm } from "~/web/bodies.server";
import { rememberLocale } from "~/services/messaging/email.server";
import { localeCookie } from "~/web/i18n.server";
import { getOptionalUser } from "~/web/session.server";

export async function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  let form: FormData;
  try {
    form = await readForm(request);
  } catch (error) {
    return formError(request, error, {});
  }
  const lng = form.get("lng");
  const target = safeRedirect(form.get("redirectTo"), "/");
  if (typeof lng !== "string" || !(supportedLngs as readonly string[]).includes(lng)) return redirect(target);
  // A signed-in user's e-mails follow the language they picked.
  const user = await getOptionalUser(request);
  if (user) await rememberLocale(user, lng as Lng);
  return redirect(target, { headers: { "Set-Cookie": await localeCookie.serialize(lng) } });
}
