import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { JsonLd, PublicCta, PublicErrorBoundary, PublicFrame } from "~/components/discovery/public-frame";
import { IdentityBadge } from "~/components/reputation/identity-badge";
import { PortfolioList } from "~/components/reputation/portfolio";
import { RatingSummary } from "~/components/reputation/rating";
import { Avatar } from "~/components/ui/avatar";
import { Facts } from "~/components/ui/facts";
import { Tags } from "~/components/ui/tags";
import { formatDate } from "~/lib/format";
import { errorTitle } from "~/lib/market-meta";
import { excerpt } from "~/lib/format";
import { seoMeta, type Seo } from "~/lib/public-meta";
import { getPublicProfile } from "~/services/discovery/public.server";
import { absolute, canonicalRedirect, person, publicHeaders, readPublicPage } from "~/web/public-page.server";

// A freelancer's public profile (docs/product.md, "Páginas públicas"): what they chose to show,
// never their e-mail; hidden by its owner or an operator, it is not found.

export async function loader({ request, params }: LoaderFunctionArgs) {
  const {
    found: profile,
    viewer,
    t,
    ogLocale,
    cacheHeaders,
  } = await readPublicPage(request, params.slug, getPublicProfile);
  canonicalRedirect(request, profile.path);
  const where = profile.city ?? (profile.remote ? t("public.remote") : null);
  const skills = profile.skills.slice(0, 5).join(", ");
  const seo: Seo = {
    title: profile.name,
    description:
      [where, skills, profile.bio ? excerpt(profile.bio, 120) : null].filter(Boolean).join(" — ") ||
      t("public.profile_default_description", { name: profile.name }),
    canonical: profile.url,
    image: absolute(profile.photo_url),
    locale: ogLocale,
    type: "profile",
    card: profile.photo_url ? "summary" : "summary_large_image",
  };
  return json(
    { profile, seo, ld: person(profile), viewer: viewer ? viewer.account_type : null },
    { headers: cacheHeaders },
  );
}

export const headers = publicHeaders;

export const meta: MetaFunction<typeof loader> = (args) =>
  args.error || !args.data ? errorTitle(args) : seoMeta(args.data.seo);

export default function PublicProfilePage() {
  const { profile: p, ld, viewer } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  return (
    <PublicFrame signedIn={viewer !== null} here={p.path}>
      <JsonLd data={ld} />
      <div className="detail-layout">
        <div className="detail-main stack">
          <section className="card profile-head">
            <Avatar user={{ full_name: p.name, photo_url: p.photo_url }} size="lg" />
            <div>
              <h1>{p.name}</h1>
              <p className="muted">
                {[p.city, p.remote ? t("public_profile.remote") : null].filter(Boolean).join(" · ")}
              </p>
              <p>
                <RatingSummary rating={p.rating} />
              </p>
              {p.identity_verified ? (
                <p>
                  <IdentityBadge verified />
                </p>
              ) : null}
            </div>
          </section>
          <section className="card" aria-labelledby="about-title">
            <h2 id="about-title">{t("public_profile.about")}</h2>
            {p.bio ? <p className="prose">{p.bio}</p> : <p className="muted">{t("public_profile.no_bio")}</p>}
            <h3>{t("public_profile.skills")}</h3>
            <Tags items={p.skills} empty={<p className="muted">{t("public_profile.no_skills")}</p>} />
          </section>
          <section className="card" aria-labelledby="portfolio-title">
            <h2 id="portfolio-title">{t("public_profile.portfolio")}</h2>
            {p.portfolio.length ? (
              <PortfolioList items={p.portfolio} />
            ) : (
              <p className="muted">{t("portfolio.empty")}</p>
            )}
          </section>
        </div>
        <PublicCta
          title={t("public.invite_heading")}
          visitor={
            viewer === null
              ? {
                  intro: t("public.invite_intro", { name: p.name }),
                  here: p.path,
                  accountType: "merchant",
                  loginLabel: t("public.login_to_invite"),
                }
              : null
          }
          signedIn={
            viewer === "merchant" ? (
              <Link to={`/freelancers/${p.id}#invite-title`} className="btn btn-primary btn-block">
                {t("public.open_to_invite")}
              </Link>
            ) : (
              <Link to={`/freelancers/${p.id}`} className="btn btn-ghost btn-block">
                {t("public.open_profile")}
              </Link>
            )
          }
        >
          <Facts
            className="facts facts-compact"
            items={[
              { label: t("public.member_since"), value: formatDate(p.member_since, i18n.language) },
              { label: t("public.completed_contracts"), value: p.completed_contracts },
            ]}
          />
        </PublicCta>
      </div>
    </PublicFrame>
  );
}

export const ErrorBoundary = PublicErrorBoundary;
