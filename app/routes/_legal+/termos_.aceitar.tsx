import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LegalPage } from "~/components/accounts/legal-page";
import { titleMeta } from "~/lib/meta";
import { usePending } from "~/lib/pending";
import { acceptTerms, legalPage, needsTerms } from "~/services/accounts/terms.server";
import { requireAccount, safeRedirect } from "~/web/auth.server";
import { formValues, readForm } from "~/web/bodies.server";
import { clientOf } from "~/web/client.server";
import { formError } from "~/web/errors.server";
import { getRequestT } from "~/web/i18n.server";
import { redirectWithSuccess } from "~/web/toast.server";

export const meta = titleMeta("titles.accept_terms");

/**
 * A new version of the terms and privacy policy: the account reads the terms (the privacy
 * policy is linked) and accepts them before any other page; then it goes where it was going.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAccount(request);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/dashboard");
  if (!needsTerms(user)) throw redirect(redirectTo);
  const { lng } = await getRequestT(request);
  return json({ terms: legalPage("terms", lng), first: user.terms_version === null });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireAccount(request);
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    await acceptTerms(user, values, await clientOf(request), { requireBox: true });
    const { t } = await getRequestT(request);
    return redirectWithSuccess(safeRedirect(values.redirectTo, "/dashboard"), t("terms_accepted"));
  } catch (error) {
    return formError(request, error, values);
  }
}

export default function AcceptTermsPage() {
  const { t } = useTranslation();
  const { terms, first } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = usePending();
  const error = data && "errors" in data ? data.errors?.accept : undefined;
  return (
    <LegalPage title={terms.title} version={terms.version} html={terms.html}>
      <section className="card" aria-labelledby="accept-title">
        <h2 id="accept-title" className="section-title">
          {first ? t("legal.accept_first_title") : t("legal.accept_title")}
        </h2>
        <p className="muted">
          {t("legal.accept_intro")}{" "}
          <Link to="/privacidade" className="link">
            {t("legal.privacy")}
          </Link>
          .
        </p>
        {data && "message" in data && !error ? (
          <p className="alert alert-danger" role="alert">
            {data.message}
          </p>
        ) : null}
        <Form method="post" className="stack" noValidate>
          <input type="hidden" name="version" value={terms.version} />
          <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
          <label className="choice-inline">
            <input
              type="checkbox"
              name="accept"
              value="on"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "accept-error" : undefined}
            />
            {t("legal.accept_box", { version: terms.version })}
          </label>
          {error ? (
            <p className="field-error" id="accept-error">
              {error}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {t("legal.accept_submit")}
            </button>
          </div>
        </Form>
      </section>
    </LegalPage>
  );
}
