import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { FiscalSettingsForm } from "~/components/payments/fiscal-settings";
import { FormMessage } from "~/components/ui/form";
import { PageHeader } from "~/components/ui/page-header";
import { marketTitleMeta } from "~/lib/market-meta";
import { getOwnIssuer, saveOwnIssuer, switchOwnIssuing } from "~/services/fiscal/issuers.server";
import { requireUser } from "~/web/auth.server";
import { fileOf, readCertificateForm } from "~/web/bodies.server";
import { orRefusal, type FormErrorData } from "~/web/errors.server";
import { intentAction } from "~/web/intent-action.server";

// A freelancer's own notas (docs/payments.md, "Notas fiscais"): their CNPJ's fiscal data and A1
// certificate, and "emitir minhas notas" on or off. Merchants get the 404 of a page not theirs.

export const meta = marketTitleMeta("titles.fiscal_own");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json(await orRefusal(getOwnIssuer(user)));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return intentAction(
    request,
    { here: "/financeiro/notas/emissao", body: readCertificateForm },
    {
      fiscal: {
        run: ({ values, form }) => saveOwnIssuer(user, values, fileOf(form, "certificate")),
        toast: "toasts.fiscal_saved",
      },
      switch: { run: ({ values }) => switchOwnIssuing(user, values), toast: "toasts.fiscal_switched" },
    },
  );
}

export default function OwnFiscalPage() {
  const { t } = useTranslation("market");
  const { issuer, identity, company_cnpj } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>() as FormErrorData | undefined;
  const mine = (intent: string) => (refusal?.values?.intent === intent ? refusal : null);
  return (
    <div className="page page-narrow">
      <PageHeader title={t("fiscal_own.heading")} intro={t("fiscal_own.intro")} />
      {identity !== "verified" ? (
        <p className="notice notice-info">
          {t("fiscal_own.needs_identity")} <Link to="/identidade">{t("fiscal_own.identity_link")}</Link>
        </p>
      ) : (
        <>
          {issuer ? (
            <section className="card" aria-labelledby="switch-title">
              <h2 id="switch-title">{t(issuer.enabled ? "fiscal_own.on" : "fiscal_own.off")}</h2>
              <FormMessage data={mine("switch")} />
              <Form method="post">
                <input type="hidden" name="intent" value="switch" />
                <input type="hidden" name="version" value={issuer.version} />
                <input type="hidden" name="enabled" value={issuer.enabled ? "0" : "1"} />
                <button type="submit" className="btn btn-secondary">
                  {t(issuer.enabled ? "fiscal_own.turn_off" : "fiscal_own.turn_on")}
                </button>
              </Form>
            </section>
          ) : null}
          <section className="card form-card">
            {company_cnpj ? <p>{t("fiscal_own.company_only", { cnpj: company_cnpj })}</p> : null}
            <FiscalSettingsForm id="fiscal" issuer={issuer} data={mine("fiscal")} withEnabled />
          </section>
        </>
      )}
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
