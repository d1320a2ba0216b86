import { IdentityBadge } from "~/components/reputation/identity-badge";
import { RatingSummary } from "~/components/reputation/rating";
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/ui/avatar";
import { ApplicationBadge, OpportunityStatusBadge } from "~/components/marketplace/badges";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { loadApplicationFor } from "~/web/application-page.server";
import { Breadcrumb, PageHeader } from "~/components/ui/page-header";
import { Facts } from "~/components/ui/facts";
import { Price, usePriceText } from "~/components/marketplace/price";
import { formatDate } from "~/lib/format";
import { useRootData } from "~/lib/root-data";
import { marketTitleMeta } from "~/lib/market-meta";
import { isNegotiating } from "~/lib/market-constants";
import { displayNameOf } from "~/lib/users";
import { requireUser } from "~/web/auth.server";
import { pageId } from "~/web/params.server";
import { Tags } from "~/components/ui/tags";

export const meta = marketTitleMeta("titles.application");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json(await loadApplicationFor(user, pageId(params, "id")));
}

export default function ApplicationPage() {
  const { application: a, viewer, actions } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("market");
  const priceText = usePriceText();
  // The top bar already knows the unread messages of every conversation.
  const unreadHere = useRootData()?.messages?.by_application[a.id] ?? 0;
  const negotiating = isNegotiating(a.status);
  const yourTurn = negotiating && a.awaiting === viewer;
  const days = t("applications.days", { count: a.delivery_days });
  return (
    <div className="page">
      <Breadcrumb>
        <Link
          to={viewer === "merchant" ? `/opportunities/${a.opportunity.uuid}/applications` : "/my-applications"}
          className="link"
        >
          ← {viewer === "merchant" ? t("applications.heading") : t("my_applications.heading")}
        </Link>
      </Breadcrumb>
      <PageHeader
        title={t("application.heading")}
        intro={
          <>
            <Link to={`/opportunities/${a.opportunity.uuid}`} className="link">
              {a.opportunity.title}
            </Link>{" "}
            {a.opportunity.status !== "open" ? <OpportunityStatusBadge status={a.opportunity.status} /> : null}
          </>
        }
        actions={
          <>
            <Link to={`/applications/${a.id}/messages`} className="btn btn-secondary">
              {unreadHere ? t("messages.open_count", { count: unreadHere }) : t("messages.open")}
            </Link>
            {a.status === "accepted" ? (
              <Link to={`/contracts/${a.id}`} className="btn btn-primary">
                {t("application.contract_link")}
              </Link>
            ) : null}
            <Link
              to={`/applications/${a.id}/negotiate`}
              className={`btn ${yourTurn ? "btn-primary" : "btn-secondary"}`}
            >
              {negotiating ? t("application.negotiate") : t("application.view_negotiation")}
            </Link>
          </>
        }
      />

      <div className="detail-layout">
        <div className="detail-main">
          <section className="card">
            <div className="row-between wrap">
              <h3>{t("application.status")}</h3>
              <ApplicationBadge application={a} viewer={viewer} />
            </div>
            {a.status === "accepted" ? (
              <p className="notice notice-success">
                {t("application.accepted_note", { price: priceText(a.price_cents, a.opportunity.budget_type), days })}
              </p>
            ) : negotiating ? (
              <p className={`notice ${yourTurn ? "notice-warning" : "notice-info"}`}>
                {yourTurn ? t("application.your_turn") : t(`application.their_turn_${a.awaiting}`)}
              </p>
            ) : a.status === "rejected" && a.rejection_reason ? (
              <p className="notice notice-danger">
                {t("application.reason", { reason: t(`reasons.${a.rejection_reason}`) })}
                {a.rejection_message ? (
                  <>
                    <br />“{a.rejection_message}”
                  </>
                ) : null}
              </p>
            ) : (
              <p className="notice notice-info">{t("application.final")}</p>
            )}
            <Facts
              items={[
                {
                  label: t("application.price"),
                  value: <Price cents={a.price_cents} basis={a.opportunity.budget_type} days={a.delivery_days} />,
                  valueClass: "fact-strong",
                },
                { label: t("application.delivery"), value: days, valueClass: "fact-strong" },
                { label: t("negotiate.history"), value: t("application.history_count", { count: a.offers.length }) },
                { label: t("details.published"), value: formatDate(a.created_at, i18n.language) },
              ]}
            />
            {actions.length ? (
              <p className="muted small">
                {t("negotiate.actions")}:{" "}
                {actions
                  .map((action) => t(`negotiate.${action === "counter" ? "counter_heading" : action}`))
                  .join(" · ")}
              </p>
            ) : null}
          </section>
          <section className="card">
            <h3>{t("application.cover_letter")}</h3>
            <p className="prose">{a.cover_letter}</p>
          </section>
        </div>
        <aside className="detail-aside">
          <section className="card side-card person-card">
            <p className="compare-label">
              {viewer === "merchant" ? t("application.freelancer") : t("application.merchant")}
            </p>
            {viewer === "merchant" ? (
              <>
                <div className="byline">
                  <Avatar user={a.freelancer} size="md" />
                  <div>
                    <strong>
                      <Link to={`/freelancers/${a.freelancer.id}`}>{displayNameOf(a.freelancer)}</Link>
                    </strong>
                    {a.freelancer.display_name ? <p className="muted small">{a.freelancer.full_name}</p> : null}
                    <RatingSummary rating={a.freelancer.rating} />{" "}
                    <IdentityBadge verified={a.freelancer.identity_verified} />
                  </div>
                </div>
                <Tags items={a.freelancer.skills} />
              </>
            ) : (
              <div className="byline">
                <Avatar
                  user={{
                    full_name: a.opportunity.merchant.display_name ?? "?",
                    photo_url: a.opportunity.merchant.photo_url,
                  }}
                  size="md"
                />
                <strong>
                  <Link to={`/merchants/${a.opportunity.merchant.id}`}>{a.opportunity.merchant.display_name}</Link>
                </strong>
              </div>
            )}
          </section>
        </aside>
      </div>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
