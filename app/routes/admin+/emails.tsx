import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FilterForm, FilterInput } from "~/components/admin/ui";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { FormMessage } from "~/components/ui/form";
import { PageHeader } from "~/components/ui/page-header";
import { DataTable } from "~/components/ui/data-table";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatDateTime } from "~/lib/format";
import { liftSuppression, listSuppressions } from "~/services/platform/email-suppressions.server";
import { operatorActor } from "~/services/operator/audit.server";
import { intentAction } from "~/web/intent-action.server";
import { requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.emails");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const q = new URL(request.url).searchParams.get("q")?.slice(0, 254) ?? "";
  return json({ q, suppressions: await listSuppressions(q) });
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  return intentAction(
    request,
    { here: `/admin/emails${new URL(request.url).search}`, toasts: "admin" },
    { lift: { run: ({ values }) => liftSuppression(operatorActor(operator), values.email), toast: "emails.lifted" } },
  );
}

/** The addresses that get no more e-mail (bounced for good, or complained), and "liberar". */
export default function AdminEmailsPage() {
  const { t, i18n } = useTranslation("admin");
  const { q, suppressions } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const columns = [t("emails.address"), t("emails.reason"), t("emails.since"), t("emails.detail"), ""];
  return (
    <div className="page">
      <PageHeader title={t("emails.heading")} intro={t("emails.intro")} />
      <FormMessage data={refusal ?? null} />
      <FilterForm active={q !== ""}>
        <FilterInput name="q" type="email" label={t("emails.search")} value={q} />
      </FilterForm>
      {suppressions.length === 0 ? (
        <p className="card empty">{t("emails.empty")}</p>
      ) : (
        <section className="card">
          <DataTable caption={t("emails.heading")} columns={columns} actionsLabel={t("emails.actions")}>
            {suppressions.map((s) => (
              <tr key={s.email}>
                <td data-label={columns[0]} className="break">
                  {s.email}
                </td>
                <td data-label={columns[1]}>
                  {t(`emails.reasons.${s.reason}`)} <span className="muted small">· {s.source}</span>
                </td>
                <td data-label={columns[2]}>{formatDateTime(s.created_at, i18n.language)}</td>
                <td data-label={columns[3]} className="small">
                  {s.detail ?? "—"}
                </td>
                <td>
                  <Form method="post">
                    <input type="hidden" name="email" value={s.email} />
                    <button
                      type="submit"
                      name="intent"
                      value="lift"
                      className="btn btn-secondary btn-sm"
                      disabled={busy}
                      aria-label={t("emails.lift_label", { email: s.email })}
                    >
                      {t("emails.lift")}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </DataTable>
        </section>
      )}
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
