import { formFields } from "~/lib/form-fields";
import { offerInputSchema, rejectInputSchema } from "~/lib/market-schemas";
import { ContactNotice } from "~/components/messaging/contact-notice";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormActions, FormCard, PageRefusal, TextAreaField, useRefusal } from "~/components/ui/form";
import { ActionsCard } from "~/components/ui/actions";
import { ApplicationBadge, OpportunityStatusBadge } from "~/components/marketplace/badges";
import { ConfirmPanel } from "~/components/ui/confirm";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { NetLine, OfferHistory, TermsCompare, TermsFields } from "~/components/marketplace/offers";
import type { Role } from "~/components/marketplace/badges";
import { feePercent, netOf } from "~/lib/fees";
import { loadApplicationFor } from "~/web/application-page.server";
import { Breadcrumb, PageHeader } from "~/components/ui/page-header";
import { useEstimateText, usePriceText, type PriceBasis } from "~/components/marketplace/price";
import { intentAction } from "~/web/intent-action.server";
import { priceInput, type PriceFields } from "~/web/market-forms.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { isNegotiating } from "~/lib/market-constants";
import { displayNameOf } from "~/lib/users";
import {
  acceptOffer,
  counterOffer,
  rejectApplication,
  withdrawApplication,
} from "~/services/marketplace/applications.server";
import { requireUser } from "~/web/auth.server";
import { pageId } from "~/web/params.server";
import { AppError } from "~/services/platform/errors.server";
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
        run: ({ values }) => counterOffer(user, id, counterInput(values)),
      },
      accept: {
        confirm: true,
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

/**
 * The counter-offer as the service takes it. A monthly negotiation's form always carries what the
 * month includes (prefilled): left blank it is refused on its field, not read as "keep it" as an
 * API call without the field is.
 */
function counterInput(values: Record<string, string>) {
  if (values.month_includes !== undefined && values.month_includes.trim() === "") {
    throw new AppError(422, "validation_failed", { month_includes: "month_includes_length" });
  }
  return priceInput(values, PRICES);
}

/** Starts with the current terms, to be changed where the counter-offer differs. */
function CounterForm({
  current,
  basis,
  feeBps,
  viewer,
}: {
  current: {
    price_cents: number;
    delivery_days: number;
    weekly_cap_hours: number | null;
    month_includes: string | null;
  };
  basis: PriceBasis;
  feeBps: number | null;
  viewer: Role;
}) {
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
        counter
        basis={basis}
        values={mine?.values}
        errors={mine?.errors ?? {}}
        defaultCents={current.price_cents}
        defaultDays={current.delivery_days}
        defaultCap={current.weekly_cap_hours}
        defaultIncludes={current.month_includes}
        feeBps={feeBps}
        viewer={viewer}
      />
      <TextAreaField {...formFields(offerInputSchema, mine).message} label={t("fields.message")} rows={3} />
      <ContactNotice refusal={mine} />
      <FormActions busy={busy} label={t("negotiate.counter_submit")} busyLabel={t("negotiate.counter_submitting")} />
    </FormCard>
  );
}

export default function NegotiatePage() {
  const { application: a, viewer, actions, feeBps } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("market");
  const priceText = usePriceText();
  const estimateText = useEstimateText();
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
        actions={<ApplicationBadge application={a} viewer={viewer} />}
      />

      {/* The counter form and the confirmation steps show their own fields' problems. */}
      <PageRefusal shownBy={["counter"]} fields={["message"]} />
      <ConfirmPanel intent="reject" cancelHref={here} allowed={actions.includes("reject")}>
        <TextAreaField {...formFields(rejectInputSchema).message} label={t("fields.reject_message")} rows={3} />
      </ConfirmPanel>
      <ConfirmPanel intent="withdraw" cancelHref={here} allowed={actions.includes("withdraw")} />
      {current ? (
        // Accepting hires: the step says on which terms, and that it becomes a contract.
        <ConfirmPanel
          intent="accept"
          tone="primary"
          cancelHref={here}
          allowed={actions.includes("accept")}
          params={{ name: other }}
          facts={[
            t("confirm.accept_terms", {
              price: priceText(current.price_cents, a.opportunity.budget_type),
              days: t("applications.days", { count: current.delivery_days }),
            }),
            ...(a.opportunity.budget_type === "hourly"
              ? [estimateText(current.price_cents, current.delivery_days)]
              : []),
            // With payments: what the freelancer receives of the price, and the deadline counts from the funding.
            ...(feeBps !== null
              ? [
                  t(`price.net_${viewer}`, {
                    net: priceText(netOf(current.price_cents, feeBps), a.opportunity.budget_type),
                    percent: feePercent(feeBps, i18n.language),
                  }),
                ]
              : []),
            t(`confirm.accept_becomes_contract_${viewer}`, { name: other, context: feeBps !== null ? "escrow" : "" }),
          ]}
        >
          <input type="hidden" name="offer_id" value={current.id} />
        </ConfirmPanel>
      ) : null}

      <div className="detail-layout">
        <div className="detail-main">
          <section className="card" aria-labelledby="terms-title">
            <h3 id="terms-title">{t("application.current_terms")}</h3>
            {current ? (
              <TermsCompare current={current} previous={previous} viewer={viewer} basis={a.opportunity.budget_type} />
            ) : null}
            {current && feeBps !== null && negotiating ? (
              <NetLine cents={current.price_cents} basis={a.opportunity.budget_type} feeBps={feeBps} viewer={viewer} />
            ) : null}
            {a.status === "accepted" ? (
              <p className="notice notice-success">
                {t("application.accepted_note", {
                  price: priceText(a.price_cents, a.opportunity.budget_type),
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
                confirm: "accept",
                primary: true,
                label: `✓ ${t("negotiate.accept")} (${priceText(current.price_cents, a.opportunity.budget_type)})`,
              },
              counter: { jump: "counter-title", label: t("negotiate.counter_heading") },
              reject: { confirm: "reject", label: t("negotiate.reject") },
              withdraw: { confirm: "withdraw", label: t("negotiate.withdraw") },
            }}
          />

          {actions.includes("counter") ? (
            <CounterForm current={a} basis={a.opportunity.budget_type} feeBps={feeBps} viewer={viewer} />
          ) : null}
        </div>

        <aside className="detail-aside">
          {/* What the freelancer wrote when applying, at hand while answering the terms. */}
          <section className="card" aria-labelledby="letter-title">
            <h3 id="letter-title">{t("application.cover_letter")}</h3>
            <p className="prose negotiate-letter">{a.cover_letter}</p>
          </section>
          <section className="card" aria-labelledby="history-title">
            <h3 id="history-title">{t("negotiate.history")}</h3>
            <p className="muted small">{t("application.history_count", { count: offers.length })}</p>
            <OfferHistory offers={offers} viewer={viewer} basis={a.opportunity.budget_type} />
          </section>
        </aside>
      </div>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
