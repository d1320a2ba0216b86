import { LIMITS } from "~/lib/limits";
import { RatingSummary } from "~/components/reputation/rating";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/ui/avatar";
import { FormMessage, TextAreaField } from "~/components/ui/form";
import { ApplicationStatusBadge, OpportunityStatusBadge } from "~/components/marketplace/badges";
import { ConfirmPanel } from "~/components/ui/confirm";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { Budget, formatDay } from "~/components/marketplace/opportunity-card";
import { TermsFields } from "~/components/marketplace/offers";
import { Breadcrumb } from "~/components/ui/page-header";
import { ReportLink } from "~/components/ui/report-link";
import { formatDate } from "~/lib/format";
import {
  marketFormError,
  priceInput,
  redirectWithMarketToast,
  requireConfirmed,
  type PriceFields,
} from "~/web/market-forms.server";
import { orRefusal } from "~/web/errors.server";
import { applyInputSchema } from "~/lib/market-schemas";
import { errorTitle } from "~/lib/market-meta";
import { translateCommon } from "~/lib/meta";
import { applyToOpportunity } from "~/services/marketplace/applications.server";
import { requireUser } from "~/web/auth.server";
import { formValues, readForm } from "~/web/bodies.server";
import {
  closeOpportunity,
  deleteOpportunity,
  getOpportunity,
  reopenOpportunity,
} from "~/services/marketplace/opportunities.server";
import { pageId } from "~/web/params.server";
import { usePending } from "~/lib/pending";

export const meta: MetaFunction<typeof loader> = (args) => {
  if (args.error) return errorTitle(args);
  const { data, matches } = args;
  const root = matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
  const title = data?.opportunity.title ?? translateCommon(root?.locale, "titles.opportunity");
  return [{ title: `${title} | Freela` }];
};

const PRICES: PriceFields = { price: "price_cents" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const opportunity = await orRefusal(getOpportunity(user, pageId(params, "uuid")));
  return json({
    opportunity,
    role: user.account_type,
    isOwner: user.account_type === "merchant" && opportunity.merchant.id === user.id,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const uuid = params.uuid!;
  const here = `/opportunities/${uuid}`;
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    switch (values.intent) {
      case "apply": {
        const application = await applyToOpportunity(user, uuid, priceInput(values, PRICES, applyInputSchema));
        return redirectWithMarketToast(request, `/applications/${application.id}`, "toasts.applied");
      }
      case "close":
        requireConfirmed(values, `${here}?confirm=close`);
        await closeOpportunity(user, uuid);
        return redirectWithMarketToast(request, here, "toasts.closed");
      case "reopen":
        await reopenOpportunity(user, uuid);
        return redirectWithMarketToast(request, here, "toasts.reopened");
      case "delete":
        requireConfirmed(values, `${here}?confirm=delete`);
        await deleteOpportunity(user, uuid);
        return redirectWithMarketToast(request, "/opportunities", "toasts.deleted");
      default:
        return redirect(here);
    }
  } catch (error) {
    return marketFormError(request, error, values, PRICES);
  }
}

function ApplyForm() {
  const { t } = useTranslation("market");
  const data = useActionData<typeof action>();
  const busy = usePending("apply");
  const mine = data?.values?.intent === "apply" ? data : null;
  const errors = mine?.errors ?? {};
  return (
    <section className="card" id="apply" aria-labelledby="apply-title">
      <h3 id="apply-title">{t("apply.heading")}</h3>
      <p className="muted">{t("apply.intro")}</p>
      <FormMessage data={mine} />
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="intent" value="apply" />
        <TextAreaField
          name="cover_letter"
          label={t("fields.cover_letter")}
          hint={t("fields.cover_letter_hint")}
          rows={6}
          maxLength={LIMITS.cover_letter.max}
          required
          defaultValue={mine?.values?.cover_letter}
          error={errors.cover_letter}
        />
        <TermsFields priceLabel={t("fields.price")} values={mine?.values} errors={errors} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t("apply.submitting") : t("apply.submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}

export default function OpportunityPage() {
  const { opportunity: o, role, isOwner } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t, i18n } = useTranslation("market");
  const [params] = useSearchParams();
  const confirm = isOwner ? params.get("confirm") : null;
  const may = (action: (typeof o.allowed_actions)[number]) => o.allowed_actions.includes(action);
  const here = `/opportunities/${o.uuid}`;
  const place =
    o.location_type === "remote" || !o.city
      ? t(`location_types.${o.location_type}`)
      : `${t(`location_types.${o.location_type}`)} · ${o.city}`;
  const pageError = data && data.values?.intent !== "apply" ? data : null;

  return (
    <div className="page">
      <Breadcrumb>
        <Link to="/opportunities" className="link">
          ← {t("details.back")}
        </Link>
      </Breadcrumb>
      <FormMessage data={pageError} />
      {o.moderation?.hidden ? (
        <p className="notice notice-warning" role="status">
          {t("moderation.opportunity_hidden")}{" "}
          {o.moderation.hidden_reason ? t("moderation.why", { reason: o.moderation.hidden_reason }) : null}
        </p>
      ) : o.moderation?.held ? (
        <p className="notice notice-info" role="status">
          {t("moderation.opportunity_held")}
        </p>
      ) : null}
      {o.closed_reason === "suspended" ? (
        <p className="notice notice-info">{t("moderation.closed_suspended")}</p>
      ) : null}
      {confirm === "close" && may("close") ? <ConfirmPanel intent="close" cancelHref={here} /> : null}
      {confirm === "delete" && may("delete") ? <ConfirmPanel intent="delete" cancelHref={here} /> : null}
      <div className="detail-layout">
        <div className="detail-main">
          <article className="card opp-detail">
            <div className="opp-card-tags">
              <OpportunityStatusBadge status={o.status} />
              <span className="tag tag-category">{t(`categories.${o.category}`)}</span>
              <span className="tag">{t(`budget_types.${o.budget_type}`)}</span>
            </div>
            <h2 className="opp-detail-title">{o.title}</h2>
            <div className="byline">
              <Avatar user={{ full_name: o.merchant.display_name ?? "?", photo_url: o.merchant.photo_url }} size="sm" />
              <span>
                {t("details.posted_by")}{" "}
                <strong>
                  <Link to={`/merchants/${o.merchant.id}`}>{o.merchant.display_name}</Link>
                </strong>{" "}
                · <RatingSummary rating={o.merchant.rating} /> · {formatDate(o.created_at, i18n.language)}
              </span>
              {role === "freelancer" ? <ReportLink type="opportunity" id={o.uuid} back={here} /> : null}
            </div>
            <dl className="facts">
              <div>
                <dt>{t("details.budget")}</dt>
                <dd>
                  <Budget item={o} />
                </dd>
              </div>
              <div>
                <dt>{t("details.location")}</dt>
                <dd>{place}</dd>
              </div>
              <div>
                <dt>{t("details.deadline")}</dt>
                <dd>{o.deadline ? formatDay(o.deadline, i18n.language) : t("list.no_deadline")}</dd>
              </div>
              <div>
                <dt>{t("details.vacancies")}</dt>
                <dd>{t("details.vacancies_value", { accepted: o.accepted_count, vacancies: o.vacancies })}</dd>
              </div>
            </dl>
            <h3>{t("details.description")}</h3>
            <p className="prose">{o.description}</p>
            <h3>{t("details.skills")}</h3>
            {o.skills.length ? (
              <ul className="tags">
                {o.skills.map((skill) => (
                  <li key={skill} className="tag">
                    {skill}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">{t("details.no_skills")}</p>
            )}
          </article>
          {role === "freelancer" && !o.my_application && o.status === "open" ? <ApplyForm /> : null}
        </div>

        <aside className="detail-aside">
          {isOwner ? (
            <section className="card side-card">
              <h3>{t("details.owner_actions")}</h3>
              <p className="big-number">
                {o.applications_count}
                <small>{t("details.applications")}</small>
              </p>
              {o.awaiting_count ? (
                <p className="notice notice-warning">{t("details.awaiting_you", { count: o.awaiting_count })}</p>
              ) : null}
              <div className="button-stack">
                <Link to={`${here}/applications`} className="btn btn-primary">
                  {t("details.view_applications")}
                </Link>
                {may("edit") ? (
                  <Link to={`${here}/edit`} className="btn btn-secondary">
                    {t("details.edit")}
                  </Link>
                ) : null}
                {may("close") ? (
                  <Link to={`${here}?confirm=close`} className="btn btn-ghost" preventScrollReset>
                    {t("details.close")}
                  </Link>
                ) : null}
                {may("reopen") ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="reopen" />
                    <button type="submit" className="btn btn-secondary btn-block">
                      {t("details.reopen")}
                    </button>
                  </Form>
                ) : o.status === "closed" ? (
                  <p className="field-hint">{t("details.reopen_blocked")}</p>
                ) : null}
                {may("delete") ? (
                  <Link to={`${here}?confirm=delete`} className="btn btn-danger-ghost" preventScrollReset>
                    {t("details.delete")}
                  </Link>
                ) : (
                  <p className="field-hint">{t("details.delete_blocked")}</p>
                )}
              </div>
            </section>
          ) : role === "freelancer" ? (
            <section className="card side-card">
              <h3>{t("list.your_application")}</h3>
              {o.my_application ? (
                <>
                  <p>
                    <ApplicationStatusBadge status={o.my_application.status} viewer="freelancer" />
                  </p>
                  <div className="button-stack">
                    <Link to={`/applications/${o.my_application.id}/negotiate`} className="btn btn-primary">
                      {t("apply.negotiate")}
                    </Link>
                    <Link to={`/applications/${o.my_application.id}`} className="btn btn-ghost">
                      {t("apply.view")}
                    </Link>
                  </div>
                </>
              ) : o.status === "open" ? (
                <>
                  <p className="muted">{t("apply.intro")}</p>
                  <a href="#apply" className="btn btn-primary btn-block">
                    {t("apply.heading")}
                  </a>
                </>
              ) : (
                <p className="muted">{t("apply.closed")}</p>
              )}
            </section>
          ) : null}
          <section className="card side-card">
            <dl className="facts facts-compact">
              <div>
                <dt>{t("details.published")}</dt>
                <dd>{formatDate(o.created_at, i18n.language)}</dd>
              </div>
              <div>
                <dt>{t("details.updated")}</dt>
                <dd>{formatDate(o.updated_at, i18n.language)}</dd>
              </div>
              {!isOwner ? (
                <div>
                  <dt>{t("details.applications")}</dt>
                  <dd>{o.applications_count}</dd>
                </div>
              ) : null}
            </dl>
          </section>
        </aside>
      </div>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
