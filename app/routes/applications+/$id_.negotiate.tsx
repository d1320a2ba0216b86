import { LIMITS } from "~/lib/limits";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormMessage, TextAreaField } from "~/components/ui/form";
import { ApplicationStatusBadge, OpportunityStatusBadge } from "~/components/marketplace/badges";
import { ConfirmPanel } from "~/components/ui/confirm";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { OfferHistory, TermsCompare, TermsFields } from "~/components/marketplace/offers";
import { loadApplicationFor } from "~/web/application-page.server";
import { Breadcrumb } from "~/components/ui/page-header";
import {
  marketFormError,
  priceInput,
  redirectWithMarketToast,
  requireConfirmed,
  type PriceFields,
} from "~/web/market-forms.server";
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
import { formValues, readForm } from "~/web/bodies.server";
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
  const here = `/applications/${id}/negotiate`;
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    switch (values.intent) {
      case "counter":
        await counterOffer(user, id, priceInput(values, PRICES, offerInputSchema));
        return redirectWithMarketToast(request, here, "toasts.countered");
      case "accept":
        await acceptOffer(user, id, { offer_id: values.offer_id });
        return redirectWithMarketToast(request, `/applications/${id}`, "toasts.accepted");
      case "reject":
        requireConfirmed(values, `${here}?confirm=reject`);
        await rejectApplication(user, id, { message: values.message });
        return redirectWithMarketToast(request, here, "toasts.rejected");
      case "withdraw":
        requireConfirmed(values, `${here}?confirm=withdraw`);
        await withdrawApplication(user, id);
        return redirectWithMarketToast(request, here, "toasts.withdrawn");
      default:
        return redirect(here);
    }
  } catch (error) {
    return marketFormError(request, error, values, PRICES);
  }
}

/** Starts with the current terms, to be changed where the counter-offer differs. */
function CounterForm({ current }: { current: { price_cents: number; delivery_days: number } }) {
  const { t } = useTranslation("market");
  const data = useActionData<typeof action>();
  const busy = usePending("counter");
  const mine = data?.values?.intent === "counter" ? data : null;
  const errors = mine?.errors ?? {};
  return (
    <section className="card" aria-labelledby="counter-title">
      <h3 id="counter-title">{t("negotiate.counter_heading")}</h3>
      <p className="muted">{t("negotiate.counter_intro")}</p>
      <FormMessage data={mine} />
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="intent" value="counter" />
        <TermsFields
          priceLabel={t("fields.offer_price")}
          values={mine?.values}
          errors={errors}
          defaultCents={current.price_cents}
          defaultDays={current.delivery_days}
        />
        <TextAreaField
          name="message"
          label={t("fields.message")}
          rows={3}
          maxLength={LIMITS.offer_message.max}
          defaultValue={mine?.values?.message}
          error={errors.message}
        />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t("negotiate.counter_submitting") : t("negotiate.counter_submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}

export default function NegotiatePage() {
  const { application: a, viewer, actions } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t, i18n } = useTranslation("market");
  const [params] = useSearchParams();
  const busy = usePending("accept");
  const here = `/applications/${a.id}/negotiate`;
  const confirm = params.get("confirm");
  const offers = a.offers;
  const current = offers[offers.length - 1];
  const previous = offers.length > 1 ? offers[offers.length - 2]! : null;
  const pageError = data && data.values?.intent !== "counter" ? data : null;
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
      <header className="page-header">
        <div>
          <h2>{t("negotiate.heading")}</h2>
          <p className="muted">
            <strong className="ink">{a.opportunity.title}</strong> · {other}{" "}
            {a.opportunity.status !== "open" ? <OpportunityStatusBadge status={a.opportunity.status} /> : null}
          </p>
        </div>
        <div className="page-header-actions">
          <ApplicationStatusBadge status={a.status} awaiting={a.awaiting} viewer={viewer} reason={a.rejection_reason} />
        </div>
      </header>

      <FormMessage data={pageError} />
      {confirm === "reject" && actions.includes("reject") ? (
        <ConfirmPanel intent="reject" cancelHref={here}>
          <TextAreaField
            name="message"
            label={t("fields.reject_message")}
            rows={3}
            maxLength={LIMITS.reject_message.max}
          />
        </ConfirmPanel>
      ) : null}
      {confirm === "withdraw" && actions.includes("withdraw") ? (
        <ConfirmPanel intent="withdraw" cancelHref={here} />
      ) : null}

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

          <section className="card" aria-labelledby="actions-title">
            <h3 id="actions-title">{t("negotiate.actions")}</h3>
            {actions.length === 0 ? (
              <p className="muted">{t("negotiate.no_actions")}</p>
            ) : (
              <div className="action-row">
                {actions.includes("accept") && current ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="accept" />
                    <input type="hidden" name="offer_id" value={current.id} />
                    <button type="submit" className="btn btn-primary" disabled={busy}>
                      ✓ {t("negotiate.accept")} ({formatMoney(current.price_cents, i18n.language)})
                    </button>
                  </Form>
                ) : null}
                {actions.includes("counter") ? (
                  <a href="#counter-title" className="btn btn-secondary">
                    {t("negotiate.counter_heading")}
                  </a>
                ) : null}
                {actions.includes("reject") ? (
                  <Link to={`${here}?confirm=reject`} className="btn btn-danger-ghost">
                    {t("negotiate.reject")}
                  </Link>
                ) : null}
                {actions.includes("withdraw") ? (
                  <Link to={`${here}?confirm=withdraw`} className="btn btn-danger-ghost">
                    {t("negotiate.withdraw")}
                  </Link>
                ) : null}
              </div>
            )}
          </section>

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
