import { LIMITS } from "~/lib/limits";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { fieldsOf, FormActions, FormCard, PageRefusal, TextAreaField, useRefusal } from "~/components/ui/form";
import { ActionsCard } from "~/components/ui/actions";
import { ApplicationStatusBadge, OpportunityStatusBadge } from "~/components/marketplace/badges";
import { ConfirmPanel } from "~/components/ui/confirm";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { OfferHistory, TermsCompare, TermsFields } from "~/components/marketplace/offers";
import { loadApplicationFor } from "~/web/application-page.server";
import { Breadcrumb, PageHeader } from "~/components/ui/page-header";
import { intentAction } from "~/web/intent-action.server";
import { priceInput, type PriceFields } from "~/web/market-forms.server";
import { offerInputSchema } from "~/lib/market-schemas";
import { marketTitleMeta } from "~/lib/market-meta";
import { isNegotiating } from "~/lib/market-constants";
import { formatMoney } from "~/lib/money";
import { displayNameOf } from "~/lib/users";
import {
  acceptOffer,
  counterOffer,
  rejectApplication,
  withdrawApplication,
} from "~/services/marketplace/applications.server";
import { requireUser } from "~/web/auth.server";
import { pageId } from "~/web/params.server";
import { usePending } from "~/lib/pending";

export const meta = marketTitleMeta("titles.negotiate");

const PRICES: PriceFields = { price: "price_cents" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json(await loadApplicationFor(user, pageId(params, "id")));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = pageId(params, "id");
  return intentAction(
    request,
    { here: `/applications/${id}/negotiate`, prices: PRICES },
    {
      counter: {
        toast: "toasts.countered",
        run: ({ values }) => counterOffer(user, id, priceInput(values, PRICES, offerInputSchema)),
      },
      accept: {
        toast: "toasts.accepted",
        to: `/applications/${id}`,
        run: ({ values }) => acceptOffer(user, id, { offer_id: values.offer_id }),
      },
      reject: {
        confirm: true,
        toast: "toasts.rejected",
        run: ({ values }) => rejectApplication(user, id, { message: values.message }),
      },
      withdraw: { confirm: true, toast: "toasts.withdrawn", run: () => withdrawApplication(user, id) },
    },
  );
}

/** Starts with the current terms, to be changed where the counter-offer differs. */
function CounterForm({ current }: { current: { price_cents: number; delivery_days: number } }) {
  const { t } = useTranslation("market");
  const busy = usePending("counter");
  const mine = useRefusal("counter");
  return (
    <FormCard
      name="counter"
      title={t("negotiate.counter_heading")}
      intro={t("negotiate.counter_intro")}
      refusal={mine}
      intent="counter"
    >
      <TermsFields
        priceLabel={t("fields.offer_price")}
        values={mine?.values}
        errors={mine?.errors ?? {}}
        defaultCents={current.price_cents}
        defaultDays={current.delivery_days}
      />
      <TextAreaField
        {...fieldsOf(mine)("message")}
        label={t("fields.message")}
        rows={3}
        maxLength={LIMITS.offer_message.max}
      />
      <FormActions busy={busy} label={t("negotiate.counter_submit")} busyLabel={t("negotiate.counter_submitting")} />
    </FormCard>
  );
}

export default function NegotiatePage() {
  const { application: a, viewer, actions } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("market");
  const here = `/applications/${a.id}/negotiate`;
  const offers = a.offers;
  const current = offers[offers.length - 1];
  const previous = offers.length > 1 ? offers[offers.length - 2]! : null;
  const negotiating = isNegotiating(a.status);
  const yourTurn = negotiating && a.awaiting === viewer;
  const other = viewer === "merchant" ? displayNameOf(a.freelancer) : a.opportunity.merchant.display_name;

  return (
    <div className="page">
      <Breadcrumb>
        <Link to={`/applications/${a.id}`} className="link">
          ← {t("negotiate.application_link")}
        </Link>
        <Link to={`/opportunities/${a.opportunity.uuid}`} className="link">
          {t("negotiate.opportunity_link")}
        </Link>
      </Breadcrumb>
      <PageHeader
        title={t("negotiate.heading")}
        intro={
          <>
            <strong className="ink">{a.opportunity.title}</strong> · {other}{" "}
            {a.opportunity.status !== "open" ? <OpportunityStatusBadge status={a.opportunity.status} /> : null}
          </>
        }
        actions={
          <ApplicationStatusBadge status={a.status} awaiting={a.awaiting} viewer={viewer} reason={a.rejection_reason} />
        }
      />

      <PageRefusal shownBy={["counter"]} />
      <ConfirmPanel intent="reject" cancelHref={here} allowed={actions.includes("reject")}>
        <TextAreaField
          name="message"
          label={t("fields.reject_message")}
          rows={3}
          maxLength={LIMITS.reject_message.max}
        />
      </ConfirmPanel>
      <ConfirmPanel intent="withdraw" cancelHref={here} allowed={actions.includes("withdraw")} />

      <div className="detail-layout">
        <div className="detail-main">
          <section className="card" aria-labelledby="terms-title">
            <h3 id="terms-title">{t("application.current_terms")}</h3>
            {current ? <TermsCompare current={current} previous={previous} viewer={viewer} /> : null}
            {a.status === "accepted" ? (
              <p className="notice notice-success">
                {t("application.accepted_note", {
                  price: formatMoney(a.price_cents, i18n.language),
                  days: t("applications.days", { count: a.delivery_days }),
                })}
              </p>
            ) : negotiating ? (
              <p className={`notice ${yourTurn ? "notice-warning" : "notice-info"}`}>
                {yourTurn ? t("application.your_turn") : t(`application.their_turn_${a.awaiting}`)}
              </p>
            ) : (
              <p className="notice notice-info">{t("application.final")}</p>
            )}
          </section>

          <ActionsCard
            title={t("negotiate.actions")}
            empty={t("negotiate.no_actions")}
            here={here}
            open={actions}
            moves={{
              accept: current && {
                post: "accept",
                primary: true,
                fields: { offer_id: current.id },
                label: `✓ ${t("negotiate.accept")} (${formatMoney(current.price_cents, i18n.language)})`,
              },
              counter: { jump: "counter-title", label: t("negotiate.counter_heading") },
              reject: { confirm: "reject", label: t("negotiate.reject") },
              withdraw: { confirm: "withdraw", label: t("negotiate.withdraw") },
            }}
          />

          {actions.includes("counter") ? <CounterForm current={a} /> : null}
        </div>

        <aside className="detail-aside">
          <section className="card" aria-labelledby="history-title">
            <h3 id="history-title">{t("negotiate.history")}</h3>
            <p className="muted small">{t("application.history_count", { count: offers.length })}</p>
            <OfferHistory offers={offers} viewer={viewer} />
          </section>
        </aside>
      </div>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
