import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ChoiceField, FieldsForm, FormActions, TextAreaField } from "~/components/ui/form";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageHeader } from "~/components/ui/page-header";
import { reportInputSchema } from "~/lib/admin-schemas";
import { formFields } from "~/lib/form-fields";
import { marketTitleMeta } from "~/lib/market-meta";
import { REPORT_REASONS, REPORT_TARGETS, type ReportTargetType } from "~/lib/moderation";
import { reportContent, reportSubject } from "~/services/operator/reports.server";
import { requireUser, safeRedirect } from "~/web/auth.server";
import { formValues, readForm } from "~/web/bodies.server";
import { formError } from "~/web/errors.server";

// Reporting anything one sees: /report?type=message&id=…&back=/applications/…/messages. The
// form works without JavaScript; after it, a confirmation ("recebemos sua denúncia") with the way
// back where the user was (which may no longer show what was reported).

export const meta = marketTitleMeta("titles.report");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function targetOf(params: URLSearchParams) {
  const type = params.get("type") ?? "";
  const id = params.get("id") ?? "";
  if (!(REPORT_TARGETS as readonly string[]).includes(type) || !UUID.test(id)) {
    throw new Response("Not Found", { status: 404 });
  }
  return { type: type as ReportTargetType, id, back: safeRedirect(params.get("back"), "/") };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const target = targetOf(params);
  const sent = params.get("sent") === "1";
  // The form names what is reported ("Denunciar a oportunidade «…»"); the confirmation, only its kind.
  return json({ ...target, sent, subject: sent ? null : await reportSubject(user, target) });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const target = targetOf(new URL(request.url).searchParams);
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    await reportContent(user, {
      target_type: target.type,
      target_id: target.id,
      reason: values.reason,
      details: values.details,
    });
    const sent = new URL(request.url);
    sent.searchParams.set("sent", "1");
    // The confirmation page says it; no toast repeating it.
    return redirect(`${sent.pathname}${sent.search}`);
  } catch (error) {
    return formError(request, error, values);
  }
}

export default function ReportPage() {
  const { t } = useTranslation("market");
  const { type, back, sent, subject } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const f = formFields(reportInputSchema, data);
  if (sent) {
    return (
      <div className="page page-narrow">
        <PageHeader title={t("moderation.sent_title")} />
        <section className="card form-card stack">
          <p role="status">{t("moderation.received")}</p>
          <p className="muted">{t("moderation.sent_text", { what: t(`moderation.targets.${type}`) })}</p>
          <div className="form-actions">
            <Link to={back} className="btn btn-primary">
              {t("moderation.sent_back")}
            </Link>
          </div>
        </section>
      </div>
    );
  }
  return (
    <div className="page page-narrow">
      <PageHeader
        title={subject ? t(`moderation.report_named.${type}`, { name: subject }) : t("moderation.report_title")}
        intro={t("moderation.report_intro")}
      />
      <section className="card form-card">
        <p>
          {t("moderation.report_about")}: <strong>{t(`moderation.targets.${type}`)}</strong>
          {subject ? ` · ${subject}` : null}
        </p>
        <FieldsForm id="report-form" data={data} className="stack">
          <ChoiceField
            {...f.reason}
            label={t("moderation.reason")}
            options={REPORT_REASONS.map((reason) => ({ value: reason, label: t(`moderation.reasons.${reason}`) }))}
          />
          <TextAreaField {...f.details} label={t("moderation.details")} hint={t("moderation.details_hint")} rows={4} />
          <FormActions busy={busy} label={t("moderation.send")}>
            <Link to={back} className="btn btn-ghost">
              {t("moderation.cancel")}
            </Link>
          </FormActions>
        </FieldsForm>
      </section>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
