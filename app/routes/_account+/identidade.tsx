import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FieldsForm, Field, SelectField } from "~/components/ui/form";
import { formFields } from "~/lib/form-fields";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageHeader } from "~/components/ui/page-header";
import { formatDateTime } from "~/lib/format";
import { IDENTITY_DOC_TYPES, IDENTITY_KINDS, identityDocumentsSchema, identitySchema } from "~/lib/identity-schemas";
import { marketTitleMeta } from "~/lib/market-meta";
import { config } from "~/config.server";
import { getIdentity, saveIdentity, submitIdentityDocuments } from "~/services/accounts/identity.server";
import { requireUser } from "~/web/auth.server";
import { fileOf, formValues, readForm, readIdentityForm } from "~/web/bodies.server";
import { marketFormError, redirectWithMarketToast } from "~/web/market-forms.server";

export const meta = marketTitleMeta("titles.identity");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // Who checks the photos, for the pending notice (the operator, or the automatic provider).
  return json({ identity: await getIdentity(user), automatic: config.IDENTITY_PROVIDER === "kyc" });
}

/** Two forms: the typed data (url-encoded) and the photos (multipart), told apart by the body's type. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  let values: Record<string, string> = {};
  try {
    if (/multipart/i.test(request.headers.get("Content-Type") ?? "")) {
      const form = await readIdentityForm(request);
      values = { ...formValues(form), intent: "documents" };
      await submitIdentityDocuments(user, values, {
        front: fileOf(form, "front"),
        back: fileOf(form, "back"),
        selfie: fileOf(form, "selfie"),
      });
      return redirectWithMarketToast(request, "/identidade", "toasts.identity_documents_sent");
    }
    values = formValues(await readForm(request));
    await saveIdentity(user, values);
    return redirectWithMarketToast(request, "/identidade", "toasts.identity_saved");
  } catch (error) {
    return marketFormError(request, error, values);
  }
}

export default function IdentityPage() {
  const { t, i18n } = useTranslation("market");
  const { identity, automatic } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const mine = (intent: string) => (data && (data.values?.intent ?? "identity") === intent ? data : null);
  const typed = mine("identity");
  const sent = mine("documents");
  // What was typed, else the saved record (empty before there is one).
  const f = formFields(identitySchema, typed, identity ?? {});
  const docs = formFields(identityDocumentsSchema, sent);
  const status = identity?.status ?? "none";
  // While pending, new photos replace those waiting (docs/product.md, "Identidade").
  const canSend = identity && status !== "verified";
  return (
    <div className="page">
      <PageHeader title={t("identity.heading")} intro={t("identity.intro")} />
      <p className={`notice notice-${status === "verified" ? "success" : status === "rejected" ? "danger" : "info"}`}>
        {t(`identity.status.${status === "pending" && automatic ? "pending_automatic" : status}`, {
          at: identity?.decided_at ? formatDateTime(identity.decided_at, i18n.language) : "",
        })}
        {status === "rejected" && identity?.reason ? (
          <>
            {" "}
            {t("identity.reason")} <q>{identity.reason}</q>
          </>
        ) : null}
      </p>
      <div className="detail-layout">
        <section className="card" aria-labelledby="identity-data-title">
          <h2 id="identity-data-title">{t("identity.data_heading")}</h2>
          <p>{t("identity.data_intro")}</p>
          <FieldsForm id="identity-data" data={typed} className="stack">
            <SelectField
              name={f.kind.name}
              label={t("identity.kind")}
              value={f.kind.defaultValue || "person"}
              options={IDENTITY_KINDS.map((k) => ({ value: k, label: t(`identity.kinds.${k}`) }))}
              error={f.kind.error}
            />
            <Field {...f.document} label={t("identity.document")} inputMode="numeric" autoComplete="off" />
            <Field {...f.legal_name} label={t("identity.legal_name")} autoComplete="name" />
            <Field
              {...f.birth_date}
              label={t("identity.birth_date")}
              type="date"
              hint={t("identity.birth_date_hint")}
            />
            <Field
              {...f.responsible_cpf}
              label={t("identity.responsible_cpf")}
              inputMode="numeric"
              hint={t("identity.responsible_cpf_hint")}
            />
            {status === "verified" ? <p className="field-hint">{t("identity.change_warning")}</p> : null}
            <button type="submit" className="btn btn-primary">
              {t("identity.save")}
            </button>
          </FieldsForm>
        </section>
        <section className="card" aria-labelledby="identity-docs-title">
          <h2 id="identity-docs-title">{t("identity.docs_heading")}</h2>
          {canSend ? (
            <FieldsForm id="identity-docs" data={sent} className="stack" encType="multipart/form-data">
              {status === "pending" ? <p>{t("identity.docs_pending")}</p> : null}
              <p>{t("identity.docs_intro")}</p>
              <SelectField
                name={docs.doc_type.name}
                label={t("identity.doc_type")}
                value={docs.doc_type.defaultValue ?? "rg"}
                options={IDENTITY_DOC_TYPES.map((k) => ({ value: k, label: t(`identity.doc_types.${k}`) }))}
                error={docs.doc_type.error}
              />
              {(["front", "back", "selfie"] as const).map((f) => (
                <Field
                  key={f}
                  name={f}
                  type="file"
                  accept="image/jpeg,image/png,image/webp"
                  label={t(`identity.files.${f}`)}
                  error={sent?.errors?.[f]}
                />
              ))}
              <button type="submit" className="btn btn-primary">
                {t("identity.send")}
              </button>
            </FieldsForm>
          ) : (
            <p>{t(identity ? `identity.docs_${status}` : "identity.docs_first")}</p>
          )}
          {identity?.files.length ? (
            <ul className="plain-list">
              {identity.files.map((f) => (
                <li key={f}>
                  <a href={`/identidade/arquivos/${f}`}>{t(`identity.files.${f}`)}</a>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      </div>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
