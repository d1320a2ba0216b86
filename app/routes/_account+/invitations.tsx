import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormMessage } from "~/components/ui/form";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { formatDate } from "~/lib/format";
import { listFromUrl, redirectWithMarketToast } from "~/web/market-forms.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { requireUser } from "~/web/auth.server";
import { formError } from "~/web/errors.server";
import { formValues, readForm } from "~/web/bodies.server";
import { declineInvitation, listInvitations, type InvitationStatus } from "~/services/marketplace/invitations.server";
import { usePending } from "~/lib/pending";

export const meta = marketTitleMeta("titles.invitations");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { list } = await listFromUrl(request, ["page"], (q) => listInvitations(user, q));
  return json({ ...list, viewer: user.account_type });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    await declineInvitation(user, values.id ?? "");
    return redirectWithMarketToast(request, "/invitations", "toasts.invitation_declined");
  } catch (error) {
    return formError(request, error, values);
  }
}

const BADGE: Record<InvitationStatus, string> = {
  pending: "app-pending",
  applied: "app-accepted",
  declined: "app-rejected",
  void: "app-withdrawn",
};

export default function InvitationsPage() {
  const { t, i18n } = useTranslation();
  const { data, meta, viewer } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const declining = usePending();
  const freelancer = viewer === "freelancer";
  return (
    <div className="page page-narrow">
      <PageHeader
        title={t("invitations.title")}
        intro={t(freelancer ? "invitations.intro_freelancer" : "invitations.intro_merchant")}
      />
      <FormMessage data={refusal} />
      {data.length ? (
        <ul className="stack invitation-list">
          {data.map((inv) => {
            const other = freelancer ? inv.merchant : inv.freelancer;
            const otherHref = freelancer ? `/merchants/${other.id}` : `/freelancers/${other.id}`;
            return (
              <li key={inv.id} className="card invitation">
                <div className="invitation-head">
                  <h3>
                    <Link to={`/opportunities/${inv.opportunity.uuid}`}>{inv.opportunity.title}</Link>
                  </h3>
                  <span className={`badge ${BADGE[inv.status]}`}>{t(`invitations.status.${inv.status}`)}</span>
                </div>
                <p className="muted">
                  {t(freelancer ? "invitations.from" : "invitations.to")}{" "}
                  <Link to={otherHref}>{other.display_name}</Link> ·{" "}
                  <time dateTime={inv.created_at}>{formatDate(inv.created_at, i18n.language)}</time>
                </p>
                <blockquote className="prewrap">{inv.message}</blockquote>
                {freelancer && inv.status === "pending" ? (
                  <div className="form-actions">
                    <Link className="btn btn-primary" to={`/opportunities/${inv.opportunity.uuid}`}>
                      {t("invitations.see_and_apply")}
                    </Link>
                    <Form method="post">
                      <input type="hidden" name="id" value={inv.id} />
                      <button type="submit" className="btn btn-secondary" disabled={declining}>
                        {t("invitations.decline")}
                      </button>
                    </Form>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <EmptyState
          title={t("invitations.empty")}
          text={t(freelancer ? "invitations.empty_freelancer" : "invitations.empty_merchant")}
        />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
