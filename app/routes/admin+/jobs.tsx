import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { FormMessage } from "~/components/ui/form";
import { PageHeader } from "~/components/ui/page-header";
import { DataTable } from "~/components/ui/data-table";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatDateTime } from "~/lib/format";
import { operatorActor } from "~/services/operator/audit.server";
import { jobsOverview, moveFailedEmail } from "~/services/operator/jobs.server";
import { intentAction } from "~/web/intent-action.server";
import { requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.jobs");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  return json(await jobsOverview());
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = operatorActor(await requireOperator(request));
  return intentAction(
    request,
    { here: "/admin/jobs", toasts: "admin" },
    {
      retry: { run: ({ values }) => moveFailedEmail(actor, values.id, "retry"), toast: "jobs.retried" },
      discard: { run: ({ values }) => moveFailedEmail(actor, values.id, "discard"), toast: "jobs.discarded" },
    },
  );
}

export default function AdminJobsPage() {
  const { t, i18n } = useTranslation("admin");
  const { queues, failed, periodic } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const when = (iso: string | null) => (iso ? formatDateTime(iso, i18n.language) : "—");
  const queueColumns = [
    t("jobs.queue"),
    t("jobs.kind"),
    t("jobs.waiting"),
    t("jobs.running"),
    t("jobs.failed"),
    t("jobs.oldest"),
  ];
  const failedColumns = [t("jobs.kind"), t("jobs.to"), t("jobs.attempts"), t("jobs.error"), t("jobs.created")];
  return (
    <div className="page">
      <PageHeader title={t("jobs.heading")} intro={t("jobs.intro")} />
      <FormMessage data={refusal ?? null} />
      <section className="card" aria-labelledby="queues-title">
        <h2 id="queues-title">{t("jobs.queues")}</h2>
        {queues.length === 0 ? (
          <p className="muted">{t("jobs.empty_queues")}</p>
        ) : (
          <DataTable caption={t("jobs.queues")} columns={queueColumns}>
            {queues.map((q) => (
              <tr key={`${q.queue}-${q.kind}`}>
                <td data-label={queueColumns[0]}>{t(`jobs.queue_names.${q.queue}`)}</td>
                <td data-label={queueColumns[1]}>
                  <code>{q.kind}</code>
                </td>
                <td data-label={queueColumns[2]}>{q.waiting}</td>
                <td data-label={queueColumns[3]}>{q.running}</td>
                <td data-label={queueColumns[4]}>
                  {q.failed > 0 && q.queue === "notas" ? (
                    <Link to="/admin/notas?status=failed" className="link" aria-label={t("jobs.notas_link")}>
                      {q.failed}
                    </Link>
                  ) : (
                    q.failed
                  )}
                </td>
                <td data-label={queueColumns[5]}>{when(q.oldest_waiting)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <section className="card" aria-labelledby="failed-title">
        <h2 id="failed-title">{t("jobs.failed_heading")}</h2>
        {failed.length === 0 ? (
          <p className="muted">{t("jobs.failed_empty")}</p>
        ) : (
          <DataTable caption={t("jobs.failed_heading")} columns={[...failedColumns, t("emails.actions")]}>
            {failed.map((f) => (
              <tr key={f.id}>
                <td data-label={failedColumns[0]}>
                  <code>{f.kind}</code>
                </td>
                <td data-label={failedColumns[1]}>{f.to}</td>
                <td data-label={failedColumns[2]}>{f.attempts}</td>
                <td data-label={failedColumns[3]} className="small">
                  {f.last_error ?? "—"}
                </td>
                <td data-label={failedColumns[4]}>{when(f.created_at)}</td>
                <td>
                  <Form method="post" className="inline-links">
                    <input type="hidden" name="id" value={f.id} />
                    {f.retriable ? (
                      <button
                        type="submit"
                        name="intent"
                        value="retry"
                        className="btn btn-secondary btn-sm"
                        disabled={busy}
                        aria-label={t("jobs.retry_label", { kind: f.kind, to: f.to })}
                      >
                        {t("jobs.retry")}
                      </button>
                    ) : (
                      <span className="muted small">{t("jobs.not_retriable")}</span>
                    )}
                    <button
                      type="submit"
                      name="intent"
                      value="discard"
                      className="btn btn-ghost btn-sm"
                      disabled={busy}
                      aria-label={t("jobs.discard_label", { kind: f.kind, to: f.to })}
                    >
                      {t("jobs.discard")}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <section className="card" aria-labelledby="periodic-title">
        <h2 id="periodic-title">{t("jobs.periodic")}</h2>
        {periodic.length === 0 ? (
          <p className="muted">{t("jobs.periodic_empty")}</p>
        ) : (
          <DataTable caption={t("jobs.periodic")} columns={[t("jobs.job"), t("jobs.runs"), t("jobs.failures")]}>
            {periodic.map((p) => (
              <tr key={p.job}>
                <td data-label={t("jobs.job")}>
                  <code>{p.job}</code>
                </td>
                <td data-label={t("jobs.runs")}>{p.runs}</td>
                <td data-label={t("jobs.failures")}>{p.failures}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
