import { IdentityBadge } from "~/components/reputation/identity-badge";
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { JsonLd, PublicCta, PublicErrorBoundary, PublicFrame } from "~/components/discovery/public-frame";
import { Budget, formatDay, usePlace } from "~/components/marketplace/opportunity-card";
import { RatingSummary } from "~/components/reputation/rating";
import { Facts } from "~/components/ui/facts";
import { Tags } from "~/components/ui/tags";
import { formatDate } from "~/lib/format";
import { errorTitle } from "~/lib/market-meta";
import { formatRange } from "~/lib/money";
import { excerpt } from "~/lib/format";
import { seoMeta, type Seo } from "~/lib/public-meta";
import { getPublicOpportunity } from "~/services/discovery/public.server";
import { absolute, canonicalRedirect, jobPosting, publicHeaders, readPublicPage } from "~/web/public-page.server";
import { publicPageMark } from "~/web/public-page-cache.server";
import { idFromSlug } from "~/services/discovery/public.server";
import type { Lng } from "~/lib/i18n";

// An opportunity's public page (docs/product.md, "Páginas públicas"): readable without signing
// in, only its public fields; a closed one answers 410 with a page saying so.

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { found, viewer, lng, t, ogLocale, cacheHeaders } = await readPublicPage(
    request,
    params.slug,
    getPublicOpportunity,
  );
  // A visitor's page is kept rendered for what was read here (app/web/public-page-cache.server.ts).
  const headers = {
    ...cacheHeaders,
    ...(viewer ? {} : await publicPageMark(request, idFromSlug(params.slug)!, lng as Lng, found)),
  };
  if (found.closed) {
    canonicalRedirect(request, found.closed.path);
    return json(
      { closed: found.closed, opportunity: null, seo: null, ld: null, viewer: null },
      { status: 410, headers },
    );
  }
  const o = found.open;
  canonicalRedirect(request, o.path);
  const budget = `${formatRange(o.budget_min_cents, o.budget_max_cents, lng)}${o.budget_type === "hourly" ? t("public.per_hour") : ""}`;
  const seo: Seo = {
    title: o.title,
    description: `${budget} · ${o.city ?? t("public.remote")} — ${excerpt(o.description, 120)}`,
    canonical: o.url,
    image: absolute(null),
    locale: ogLocale,
    type: "website",
    card: "summary_large_image",
  };
  return json(
    { closed: null, opportunity: o, seo, ld: jobPosting(o), viewer: viewer ? viewer.account_type : null },
    { headers },
  );
}

export const headers = publicHeaders;

export const meta: MetaFunction<typeof loader> = (args) => {
  if (args.error) return errorTitle(args);
  const data = args.data;
  if (data?.seo) return seoMeta(data.seo);
  return [{ title: `${data?.closed?.title ?? "Freela"} | Freela` }, { name: "robots", content: "noindex" }];
};

function ClosedPage({ title, signedIn, here }: { title: string; signedIn: boolean; here: string }) {
  const { t } = useTranslation();
  return (
    <PublicFrame signedIn={signedIn} here={here}>
      <section className="card narrow center stack">
        <p className="error-code">410</p>
        <h1>{title}</h1>
        <p className="muted">{t("public.closed_text")}</p>
        <div className="button-row">
          <Link to={signedIn ? "/opportunities" : "/vagas"} className="btn btn-primary">
            {t("public.see_open")}
          </Link>
        </div>
      </section>
    </PublicFrame>
  );
}

export default function PublicOpportunityPage() {
  const { closed, opportunity: o, ld, viewer } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { t: tm, i18n } = useTranslation("market");
  const place = usePlace(o ?? { location_type: "remote", city: null });
  if (closed || !o) return <ClosedPage title={closed!.title} signedIn={viewer !== null} here={closed!.path} />;
  return (
    <PublicFrame signedIn={viewer !== null} here={o.path}>
      <JsonLd data={ld} />
      <div className="detail-layout">
        <div className="detail-main">
          <article className="card opp-detail">
            <div className="opp-card-tags">
              <span className="tag tag-category">{tm(`categories.${o.category}`)}</span>
              <span className="tag">{tm(`budget_types.${o.budget_type}`)}</span>
            </div>
            <h1 className="opp-detail-title">{o.title}</h1>
            <div className="byline">
              <span>
                {tm("details.posted_by")} <strong>{o.merchant.name}</strong> ·{" "}
                <RatingSummary rating={o.merchant.rating} /> <IdentityBadge verified={o.merchant.identity_verified} /> ·{" "}
                {formatDate(o.created_at, i18n.language)}
              </span>
            </div>
            <Facts
              items={[
                { label: tm("details.budget"), value: <Budget item={o} /> },
                { label: tm("details.location"), value: place },
                {
                  label: tm("details.deadline"),
                  value: o.deadline ? formatDay(o.deadline, i18n.language) : tm("list.no_deadline"),
                },
                { label: tm("details.vacancies"), value: o.vacancies },
              ]}
            />
            <h2>{tm("details.description")}</h2>
            <p className="prose">{o.description}</p>
            <h2>{tm("details.skills")}</h2>
            <Tags items={o.skills} empty={<p className="muted">{tm("details.no_skills")}</p>} />
          </article>
        </div>
        <PublicCta
          title={t("public.apply_heading")}
          visitor={
            viewer === null
              ? {
                  intro: t("public.apply_intro"),
                  here: o.path,
                  accountType: "freelancer",
                  loginLabel: t("public.login_to_apply"),
                }
              : null
          }
          signedIn={
            viewer === "freelancer" ? (
              <Link to={`/opportunities/${o.uuid}#apply`} className="btn btn-primary btn-block">
                {t("public.open_to_apply")}
              </Link>
            ) : (
              <p className="muted">{t("public.merchant_note")}</p>
            )
          }
        />
      </div>
    </PublicFrame>
  );
}

export const ErrorBoundary = PublicErrorBoundary;
