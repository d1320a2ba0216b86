import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormMessage, TextAreaField } from "~/components/ui/form";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatDate, formatDateTime } from "~/lib/format";
import { LIMITS } from "~/lib/limits";
import { formatRange } from "~/lib/money";
import { decideHeldOpportunity, listHeldOpportunities } from "~/services/operator/premoderation.server";
import { getSettings } from "~/services/operator/settings.server";
import { formValues, readForm } from "~/web/bodies.server";
import { formError } from "~/web/errors.server";
import { listFromUrl } from "~/web/market-forms.server";
import { redirectWithAdminToast, requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.premoderation");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const [{ list }, settings] = await Promise.all([
    listFromUrl(request, ["page"], listHeldOpportunities),
    getSettings(),
  ]);
  return json({ ...list, settings });
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    await decideHeldOpportunity(operator, values.uuid ?? "", { decision: values.decision, reason: values.reason });
    return redirectWithAdminToast(request, "/admin/premoderation", `premoderation.done.${values.decision}`);
  } catch (error) {
    return formError(request, error, values);
  }
}

export default function PremoderationPage() {
  const { t, i18n } = useTranslation("admin");
  const { data, meta, settings } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="page">
      <PageHeader
        title={t("premoderation.heading")}
        intro={
          settings.premoderation_days > 0
            ? t("premoderation.on", { count: settings.premoderation_days })
            : t("premoderation.off")
        }
        actions={
          <Link to="/admin/settings" className="btn btn-secondary">
            {t("nav.settings")}
          </Link>
        }
      />
      {data.length ? (
        <ul className="admin-list" aria-label={t("premoderation.heading")}>
          {data.map((o) => {
            const mine = refusal?.values?.uuid === o.uuid ? refusal : null;
            return (
              <li key={o.uuid} className="card queue-item">
                <div className="queue-head">
                  <h3 className="small">{o.title}</h3>
                  <span className="muted small">
                    {t("premoderation.waiting_since", { date: formatDateTime(o.held_at, i18n.language) })}
                  </span>
                </div>
                <p className="small">
                  <Link to={`/admin/users/${o.merchant.id}`} className="link">
                    {o.merchant.name}
                  </Link>{" "}
                  · {o.merchant.email} ·{" "}
                  {t("premoderation.account_since", { date: formatDate(o.merchant.created_at, i18n.language) })} ·{" "}
                  {formatRange(o.budget_min_cents, o.budget_max_cents, i18n.language)}
                </p>
                <blockquote className="quote">{o.description}</blockquote>
                <FormMessage data={mine} />
                <Form method="post" className="admin-form" noValidate>
                  <input type="hidden" name="uuid" value={o.uuid} />
                  <TextAreaField
                    name="reason"
                    id={`reason-${o.uuid}`}
                    label={t("premoderation.reason")}
                    rows={2}
                    maxLength={LIMITS.moderation_reason.max}
                    defaultValue={mine?.values?.reason}
                    error={mine?.errors?.reason}
                  />
                  <div className="form-actions">
                    <button
                      type="submit"
                      name="decision"
                      value="reject"
                      className="btn btn-danger-ghost"
                      disabled={busy}
                    >
                      {t("premoderation.reject")}
                    </button>
                    <button type="submit" name="decision" value="approve" className="btn btn-primary" disabled={busy}>
                      {t("premoderation.approve")}
                    </button>
                  </div>
                </Form>
              </li>
            );
          })}
        </ul>
      ) : (
        <EmptyState title={t("premoderation.empty")} />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
