import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { FormMessage, TextAreaField } from "~/components/ui/form";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatDateTime } from "~/lib/format";
import { decideIdentity, identityQueue, recentConflicts } from "~/services/accounts/identity.server";
import { AppError } from "~/services/platform/errors.server";
import { formValues, readForm } from "~/web/bodies.server";
import { formError } from "~/web/errors.server";
import { redirectWithAdminToast, requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.identity");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const [queue, conflicts] = await Promise.all([identityQueue(), recentConflicts()]);
  return json({ queue, conflicts });
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    if (values.intent !== "approve" && values.intent !== "reject") throw new AppError(400, "identity_decision_invalid");
    await decideIdentity(operator, values.id ?? "", {
      decision: values.intent,
      version: values.version,
      reason: values.reason,
    });
    return redirectWithAdminToast(request, "/admin/identity", `identity.done.${values.intent}`);
  } catch (error) {
    return formError(request, error, values);
  }
}

/** A decision on an identity at the version the operator saw: the form's refusal, then `children`. */
function DecisionForm({
  item,
  refusal,
  children,
}: {
  item: { user_id: string; version: number };
  refusal: Parameters<typeof FormMessage>[0]["data"];
  children: ReactNode;
}) {
  return (
    <Form method="post" className="admin-form" noValidate>
      <FormMessage data={refusal} />
      <input type="hidden" name="id" value={item.user_id} />
      <input type="hidden" name="version" value={item.version} />
      {children}
    </Form>
  );
}

export default function IdentityQueuePage() {
  const { t, i18n } = useTranslation("admin");
  const { queue, conflicts } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const date = (at: string | null) => (at ? formatDateTime(at, i18n.language) : "");
  const refusalOf = (id: string, intent: string) =>
    data && data.values?.id === id && data.values?.intent === intent ? data : null;
  return (
    <div className="page">
      <PageHeader title={t("identity.heading")} intro={t("identity.intro")} />
      <section className="admin-section" aria-labelledby="identity-queue">
        <h2 id="identity-queue" className="section-title">
          {t("identity.queue")} ({queue.length})
        </h2>
        {queue.length === 0 ? (
          <EmptyState title={t("identity.empty")} />
        ) : (
          <ul className="admin-list" aria-labelledby="identity-queue">
            {queue.map((item) => (
              <li key={item.user_id} id={`identity-${item.user_id}`} className="card queue-item">
                <div className="queue-head">
                  <h3 className="small">
                    {item.legal_name} · {item.email}
                  </h3>
                  <span className="muted small">{t("identity.sent_at", { date: date(item.submitted_at) })}</span>
                </div>
                <div className="identity-compare">
                  <dl className="facts">
                    <div>
                      <dt>{t("identity.kind")}</dt>
                      <dd>{t(`identity.kinds.${item.kind}`)}</dd>
                    </div>
                    <div>
                      <dt>{t(item.kind === "person" ? "identity.cpf" : "identity.cnpj")}</dt>
                      <dd className="mono">{item.document}</dd>
                    </div>
                    <div>
                      <dt>{t("identity.legal_name")}</dt>
                      <dd>{item.legal_name}</dd>
                    </div>
                    {item.kind === "person" ? (
                      <div>
                        <dt>{t("identity.birth_date")}</dt>
                        <dd>{item.birth_date}</dd>
                      </div>
                    ) : (
                      <div>
                        <dt>{t("identity.responsible_cpf")}</dt>
                        <dd className="mono">{item.responsible_cpf}</dd>
                      </div>
                    )}
                    <div>
                      <dt>{t("identity.doc_type")}</dt>
                      <dd>{item.doc_type?.toUpperCase()}</dd>
                    </div>
                    {item.conflicts.length ? (
                      <div>
                        <dt>{t("identity.conflicts")}</dt>
                        <dd>{item.conflicts.map((c) => c.email).join(", ")}</dd>
                      </div>
                    ) : null}
                  </dl>
                  <div className="identity-photos">
                    {item.files.map((f) => (
                      <a key={f} href={`/admin/identity/${item.user_id}/files/${f}`}>
                        <img
                          src={`/admin/identity/${item.user_id}/files/${f}`}
                          alt={t(`identity.files.${f}`)}
                          width={240}
                          loading="lazy"
                        />
                      </a>
                    ))}
                  </div>
                </div>
                <DecisionForm item={item} refusal={refusalOf(item.user_id, "approve")}>
                  <button type="submit" name="intent" value="approve" className="btn btn-primary" disabled={busy}>
                    {t("identity.approve")}
                  </button>
                </DecisionForm>
                <DecisionForm item={item} refusal={refusalOf(item.user_id, "reject")}>
                  <TextAreaField
                    name="reason"
                    id={`reason-${item.user_id}`}
                    label={t("identity.reason")}
                    hint={t("identity.reason_hint")}
                    defaultValue={refusalOf(item.user_id, "reject")?.values?.reason}
                    error={refusalOf(item.user_id, "reject")?.errors?.reason}
                  />
                  <button type="submit" name="intent" value="reject" className="btn btn-danger-ghost" disabled={busy}>
                    {t("identity.reject")}
                  </button>
                </DecisionForm>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="admin-section" aria-labelledby="identity-conflicts">
        <h2 id="identity-conflicts" className="section-title">
          {t("identity.conflicts_heading")} ({conflicts.length})
        </h2>
        <p className="muted small">{t("identity.conflicts_intro")}</p>
        {conflicts.length === 0 ? (
          <EmptyState title={t("identity.conflicts_empty")} />
        ) : (
          <ul className="plain-list">
            {conflicts.map((c) => (
              <li key={c.id}>
                {t("identity.conflict_line", { date: date(c.created_at), who: c.email, holder: c.holder_email })}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
