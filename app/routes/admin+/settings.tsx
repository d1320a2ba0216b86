import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormMessage } from "~/components/ui/form";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageHeader } from "~/components/ui/page-header";
import { adminTitleMeta } from "~/lib/admin-meta";
import { MAX_PREMODERATION_DAYS } from "~/lib/moderation";
import { FiscalSettingsForm } from "~/components/payments/fiscal-settings";
import { getSettings, updateSettings } from "~/services/operator/settings.server";
import { getPlatformIssuer, savePlatformIssuer } from "~/services/fiscal/issuers.server";
import { fileOf, formValues, readCertificateForm, readForm } from "~/web/bodies.server";
import { formError, type FormErrorData } from "~/web/errors.server";
import { redirectWithAdminToast, requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.settings");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const [settings, fiscal] = await Promise.all([getSettings(), getPlatformIssuer()]);
  return json({ settings, fiscal });
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  let values: Record<string, string> = {};
  try {
    // The platform's fiscal settings: the multipart form with the certificate.
    if (/multipart/i.test(request.headers.get("Content-Type") ?? "")) {
      values = { intent: "fiscal" };
      const form = await readCertificateForm(request);
      values = { ...formValues(form), intent: "fiscal" };
      await savePlatformIssuer(operator, values, fileOf(form, "certificate"));
      return redirectWithAdminToast(request, "/admin/settings", "settings.fiscal_saved");
    }
    values = formValues(await readForm(request));
    await updateSettings(operator, {
      premoderation_days: values.premoderation_days,
      public_pages: values.public_pages ?? "0",
    });
    return redirectWithAdminToast(request, "/admin/settings", "settings.saved");
  } catch (error) {
    return formError(request, error, values);
  }
}

export default function SettingsPage() {
  const { t } = useTranslation("admin");
  const { settings, fiscal } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  // Which of the two forms was refused: the fiscal one says so in its values.
  const fiscalRefusal = refusal?.values?.intent === "fiscal" ? (refusal as FormErrorData) : null;
  const data = fiscalRefusal ? undefined : refusal;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="page page-narrow">
      <PageHeader title={t("settings.heading")} intro={t("settings.intro")} />
      <section className="card form-card">
        <FormMessage data={data} />
        <Form method="post" className="admin-form" noValidate>
          <Field
            name="premoderation_days"
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_PREMODERATION_DAYS}
            label={t("settings.premoderation_days")}
            hint={t("settings.premoderation_hint")}
            defaultValue={data?.values?.premoderation_days ?? String(settings.premoderation_days)}
            error={data?.errors?.premoderation_days}
          />
          <div className="field field-check">
            <label>
              <input
                type="checkbox"
                name="public_pages"
                value="1"
                defaultChecked={data?.values ? data.values.public_pages === "1" : settings.public_pages === 1}
                aria-describedby="public-pages-hint"
              />{" "}
              {t("settings.public_pages")}
            </label>
            <p className="field-hint" id="public-pages-hint">
              {t("settings.public_pages_hint")}
            </p>
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {t("settings.save")}
            </button>
          </div>
        </Form>
      </section>
      <section className="card form-card" aria-labelledby="fiscal-title">
        <h2 id="fiscal-title">{t("settings.fiscal_heading")}</h2>
        <p>{t("settings.fiscal_intro")}</p>
        <FiscalSettingsForm id="fiscal" issuer={fiscal} data={fiscalRefusal} />
      </section>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
