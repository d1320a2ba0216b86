import { formFields } from "~/lib/form-fields";
import { applyInputSchema } from "~/lib/market-schemas";
import { ContactNotice } from "~/components/messaging/contact-notice";
import { RatingSummary } from "~/components/reputation/rating";
import {
  json,
  type ActionFunctionArgs,
  type SerializeFrom,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/ui/avatar";
import { FormActions, FormCard, PageRefusal, IntentButton, TextAreaField, useRefusal } from "~/components/ui/form";
import { ApplicationStatusBadge, OpportunityStatusBadge } from "~/components/marketplace/badges";
import { ConfirmLink, ConfirmPanel } from "~/components/ui/confirm";
import { Facts } from "~/components/ui/facts";
import { Tags } from "~/components/ui/tags";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { Budget, formatDay, usePlace } from "~/components/marketplace/opportunity-card";
import { TermsFields } from "~/components/marketplace/offers";
import type { PriceBasis } from "~/components/marketplace/price";
import { Breadcrumb } from "~/components/ui/page-header";
import { ReportLink } from "~/components/ui/report-link";
import { formatDate } from "~/lib/format";
import { intentAction, withResult } from "~/web/intent-action.server";
import { priceInput, type PriceFields } from "~/web/market-forms.server";
import { orRefusal } from "~/web/errors.server";
import { hireFeeBps } from "~/web/application-page.server";
import { errorTitle } from "~/lib/market-meta";
import { translateCommon } from "~/lib/meta";
import { applyToOpportunity } from "~/services/marketplace/applications.server";
import { requireUser } from "~/web/auth.server";
import {
  closeOpportunity,
  deleteOpportunity,
  endedOpportunity,
  getOpportunity,
  reopenOpportunity,
} from "~/services/marketplace/opportunities.server";
import { AppError } from "~/services/platform/errors.server";
import { pageId } from "~/web/params.server";
import { suggestFreelancers } from "~/services/discovery/matches.server";
import { opportunityShareUrl } from "~/services/discovery/public.server";
import { SuggestedFreelancers } from "~/components/discovery/suggested-freelancers";
import { ShareCard } from "~/components/discovery/share-card";
import { usePending } from "~/lib/pending";

export const meta: MetaFunction<typeof loader> = (args) => {
  if (args.error) return errorTitle(args);
  const { data, matches } = args;
  const root = matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
  const title = data?.opportunity.title ?? translateCommon(root?.locale, "titles.opportunity");
  return [{ title: `${title} | Freela` }];
};

const PRICES: PriceFields = { price: "price_cents" };

/** The 410 of an ended opportunity is not kept by the browser: the page may answer otherwise later (hidden: 404). */
export const headers: HeadersFunction = ({ errorHeaders, loaderHeaders }) => errorHeaders ?? loaderHeaders;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const uuid = pageId(params, "uuid");
  // One that filled or closed (not visible to those who did not apply) says so, with 410, as the
  // public page does; anything else not visible stays "not found".
  const opportunity = await getOpportunity(user, uuid).catch(async (error: unknown) => {
    const ended = error instanceof AppError && error.status === 404 ? await endedOpportunity(uuid) : null;
    if (!ended) return orRefusal(Promise.reject(error));
    throw json({ ended }, { status: 410, headers: { "Cache-Control": "no-store" } });
  });
  const isOwner = user.account_type === "merchant" && opportunity.merchant.id === user.id;
  return json({
    opportunity,
    role: user.account_type,
    isOwner,
    suggestions: isOwner ? await suggestFreelancers(opportunity) : [],
    shareUrl: opportunity.status === "open" ? await opportunityShareUrl(opportunity.uuid) : null,
    feeBps: hireFeeBps(),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const uuid = params.uuid!;
  return intentAction(
    request,
    { here: `/opportunities/${uuid}`, prices: PRICES },
    {
      apply: withResult({
        toast: "toasts.applied",
        run: ({ values }) => applyToOpportunity(user, uuid, priceInput(values, PRICES)),
        to: (application) => `/applications/${application.id}`,
      }),
      close: { confirm: true, toast: "toasts.closed", run: () => closeOpportunity(user, uuid) },
      reopen: { toast: "toasts.reopened", run: () => reopenOpportunity(user, uuid) },
      delete: {
        confirm: true,
        toast: "toasts.deleted",
        to: "/opportunities",
        run: () => deleteOpportunity(user, uuid),
      },
    },
  );
}

function ApplyForm({ basis, feeBps }: { basis: PriceBasis; feeBps: number | null }) {
  const { t } = useTranslation("market");
  const busy = usePending("apply");
  const mine = useRefusal("apply");
  return (
    <FormCard id="apply" name="apply" title={t("apply.heading")} intro={t("apply.intro")} refusal={mine} intent="apply">
      <TextAreaField
        {...formFields(applyInputSchema, mine).cover_letter}
        label={t("fields.cover_letter")}
        hint={t("fields.cover_letter_hint")}
        rows={6}
      />
      <TermsFields basis={basis} values={mine?.values} errors={mine?.errors ?? {}} feeBps={feeBps} />
      <ContactNotice refusal={mine} />
      <FormActions busy={busy} label={t("apply.submit")} busyLabel={t("apply.submitting")} />
    </FormCard>
  );
}

type Opportunity = SerializeFrom<typeof loader>["opportunity"];

/** What the merchant who posted it can do with it: applications, edit, close, reopen, delete. */
function OwnerActions({ o }: { o: Opportunity }) {
  const { t } = useTranslation("market");
  const may = (action: (typeof o.allowed_actions)[number]) => o.allowed_actions.includes(action);
  const here = `/opportunities/${o.uuid}`;
  return (
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
          <ConfirmLink from={here} intent="close" className="btn btn-ghost" preventScrollReset>
            {t("details.close")}
          </ConfirmLink>
        ) : null}
        {may("reopen") ? (
          <IntentButton intent="reopen" className="btn btn-secondary btn-block">
            {t("details.reopen")}
          </IntentButton>
        ) : o.status === "closed" ? (
          <p className="field-hint">{t("details.reopen_blocked")}</p>
        ) : null}
        {may("delete") ? (
          <ConfirmLink from={here} intent="delete" preventScrollReset>
            {t("details.delete")}
          </ConfirmLink>
        ) : (
          <p className="field-hint">{t("details.delete_blocked")}</p>
        )}
      </div>
    </section>
  );
}

/** A freelancer's application to it, or the way to apply. */
function YourApplication({ o }: { o: Opportunity }) {
  const { t } = useTranslation("market");
  return (
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
  );
}

export default function OpportunityPage() {
  const { opportunity: o, role, isOwner, suggestions, shareUrl, feeBps } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("market");
  const may = (action: (typeof o.allowed_actions)[number]) => o.allowed_actions.includes(action);
  const here = `/opportunities/${o.uuid}`;
  const place = usePlace(o);

  return (
    <div className="page">
      <Breadcrumb>
        <Link to="/opportunities" className="link">
          ← {t("details.back")}
        </Link>
      </Breadcrumb>
      <PageRefusal shownBy={["apply"]} />
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
      <ConfirmPanel intent="close" cancelHref={here} allowed={isOwner && may("close")} />
      <ConfirmPanel intent="delete" cancelHref={here} allowed={isOwner && may("delete")} />
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
            <Facts
              items={[
                { label: t("details.budget"), value: <Budget item={o} /> },
                { label: t("details.location"), value: place },
                {
                  label: t("details.deadline"),
                  value: o.deadline ? formatDay(o.deadline, i18n.language) : t("list.no_deadline"),
                },
                {
                  label: t("details.vacancies"),
                  value: t("details.vacancies_value", { accepted: o.accepted_count, vacancies: o.vacancies }),
                },
              ]}
            />
            <h3>{t("details.description")}</h3>
            <p className="prose">{o.description}</p>
            <h3>{t("details.skills")}</h3>
            <Tags items={o.skills} empty={<p className="muted">{t("details.no_skills")}</p>} />
          </article>
          {role === "freelancer" && !o.my_application && o.status === "open" ? (
            <ApplyForm basis={o.budget_type} feeBps={feeBps} />
          ) : null}
        </div>

        <aside className="detail-aside">
          {isOwner ? <OwnerActions o={o} /> : null}
          {shareUrl ? (
            <ShareCard
              url={shareUrl}
              heading={t("details.share_heading")}
              label={t("details.share_label")}
              hint={t("details.share_hint")}
              open={t("details.share_open")}
            />
          ) : null}
          {isOwner && o.status === "open" && o.skills.length > 0 ? (
            <SuggestedFreelancers uuid={o.uuid} people={suggestions} />
          ) : null}
          {role === "freelancer" ? <YourApplication o={o} /> : null}
          <section className="card side-card">
            <Facts
              className="facts facts-compact"
              items={[
                { label: t("details.published"), value: formatDate(o.created_at, i18n.language) },
                { label: t("details.updated"), value: formatDate(o.updated_at, i18n.language) },
                !isOwner && { label: t("details.applications"), value: o.applications_count },
              ]}
            />
          </section>
        </aside>
      </div>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
