import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Trans, useTranslation } from "react-i18next";
import { ServiceGallery } from "~/components/catalog/service-images";
import { JsonLd, PublicErrorBoundary, PublicFrame } from "~/components/discovery/public-frame";
import { IdentityBadge } from "~/components/reputation/identity-badge";
import { RatingSummary } from "~/components/reputation/rating";
import { ReviewItem } from "~/components/reputation/reviews";
import { Facts } from "~/components/ui/facts";
import { ReportLink } from "~/components/ui/report-link";
import { Tags } from "~/components/ui/tags";
import { excerpt } from "~/lib/format";
import { errorTitle } from "~/lib/market-meta";
import { formatMoney } from "~/lib/money";
import { seoMeta, type Seo } from "~/lib/public-meta";
import { getPublicService, type PublicService } from "~/services/catalog/public-services.server";
import { fixedT } from "~/services/platform/i18n.server";
import { absolute, canonicalRedirect, publicHeaders, readPublicPage, serviceLd } from "~/web/public-page.server";
import { getOptionalUser } from "~/web/session.server";

// A ready-made service's page (docs/product.md, "Serviços prontos"): readable without signing in
// while it is published (404 otherwise, but to its owner, who sees it as it is now and unindexed),
// at /servicos/<slug>-<id> (a title's change moves it: the old slug answers 301). Each package's
// "Contratar" leads to the order's confirmation step (servicos+/$slug.contratar.tsx).

export async function loader({ request, params }: LoaderFunctionArgs) {
  const {
    found: s,
    viewer,
    lng,
    ogLocale,
    cacheHeaders,
  } = await readPublicPage(request, params.slug, async (id) =>
    // Its owner reads it in any state (the session is read once per request).
    getPublicService(await getOptionalUser(request), id),
  );
  canonicalRedirect(request, s.path);
  const tm = fixedT(lng, "market");
  const seo: Seo = {
    title: s.title,
    description: `${fixedT(lng, "services")("public.price_from")} ${formatMoney(s.price_from_cents, lng)} · ${tm(`categories.${s.category}`)} — ${excerpt(s.description, 120)}`,
    canonical: s.url,
    // Its first image when it has one, the site's picture otherwise.
    image: absolute(s.images[0]?.url ?? null),
    locale: ogLocale,
    type: "website",
    card: "summary_large_image",
  };
  return json(
    {
      service: s,
      seo,
      ld: s.preview ? null : serviceLd(s),
      viewer: viewer ? viewer.account_type : null,
      // "Denunciar": for someone signed in who may report it (not its owner, not an operator).
      reportable: viewer !== null && !s.preview && viewer.account_type !== "operator" && viewer.id !== s.freelancer.id,
    },
    { headers: cacheHeaders },
  );
}

export const headers = publicHeaders;

export const meta: MetaFunction<typeof loader> = (args) => {
  if (args.error || !args.data) return errorTitle(args);
  const tags = seoMeta(args.data.seo);
  return args.data.service.preview ? [...tags, { name: "robots", content: "noindex" }] : tags;
};

/** Whom to talk to: their public profile when visitors can see it, their name otherwise. */
function FreelancerName({ freelancer }: { freelancer: PublicService["freelancer"] }) {
  return freelancer.path ? <Link to={freelancer.path}>{freelancer.name}</Link> : <strong>{freelancer.name}</strong>;
}

function Packages({ service: s, canBuy }: { service: PublicService; canBuy: boolean }) {
  const { t, i18n } = useTranslation("services");
  return (
    <section className="stack" aria-labelledby="service-packages">
      <h2 id="service-packages">{t("public.packages")}</h2>
      <div className={`service-packages service-packages-${s.packages.length}`}>
        {s.packages.map((p, i) => (
          <section key={i} className="card service-package" aria-labelledby={`package-${i}`}>
            <h3 id={`package-${i}`}>{p.name}</h3>
            <p className="service-package-price">{formatMoney(p.price_cents, i18n.language)}</p>
            <Facts
              items={[
                { label: t("public.package_delivery"), value: t("public.days", { count: p.delivery_days }) },
                {
                  label: t("public.package_revisions"),
                  value: p.revisions === 0 ? t("public.revisions_zero") : t("public.revisions", { count: p.revisions }),
                },
              ]}
            />
            <h4>{t("public.includes")}</h4>
            <ul className="service-includes">
              {p.includes.map((line, j) => (
                <li key={j}>{line}</li>
              ))}
            </ul>
            {canBuy ? (
              // A link to the confirmation step: works without JavaScript; visitors sign in and come back.
              <Link
                to={`${s.path}/contratar?pacote=${i}`}
                className="btn btn-primary btn-block"
                aria-label={t("order.hire_package", { name: p.name })}
              >
                {t("order.hire")}
              </Link>
            ) : null}
          </section>
        ))}
      </div>
    </section>
  );
}

export default function PublicServicePage() {
  const { service: s, ld, viewer, reportable } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("services");
  const { t: tm } = useTranslation("market");
  return (
    <PublicFrame signedIn={viewer !== null} here={s.path}>
      {ld ? <JsonLd data={ld} /> : null}
      {s.preview ? (
        <p className="notice notice-info" role="status">
          {s.status === "published"
            ? t("public.preview_hidden")
            : t("public.preview", { status: t(`public.preview_status.${s.status}`) })}
        </p>
      ) : null}
      <div className="detail-layout">
        <div className="detail-main">
          <article className="card opp-detail stack">
            <div className="opp-card-tags">
              <span className="tag tag-category">{tm(`categories.${s.category}`)}</span>
            </div>
            <h1 className="opp-detail-title">{s.title}</h1>
            <ServiceGallery images={s.images} title={s.title} />
            <div className="byline">
              <span>
                {t("public.by_label")} <FreelancerName freelancer={s.freelancer} />{" "}
                <IdentityBadge verified={s.freelancer.identity_verified} /> · <RatingSummary rating={s.rating} />
              </span>
              {reportable ? <ReportLink type="service" id={s.id} back={s.path} /> : null}
            </div>
            <Facts
              items={[
                {
                  label: t("public.price_from"),
                  value: formatMoney(s.price_from_cents, i18n.language),
                  valueClass: "fact-strong",
                },
                { label: t("public.delivery_from"), value: t("public.days", { count: s.delivery_days_min }) },
              ]}
            />
            <h2>{t("public.description")}</h2>
            <p className="prose">{s.description}</p>
            {s.skills.length ? (
              <>
                <h2>{t("public.skills")}</h2>
                <Tags items={s.skills} />
              </>
            ) : null}
          </article>
          <Packages service={s} canBuy={!s.preview && viewer !== "freelancer"} />
          {s.extras.length ? (
            <section className="card stack" aria-labelledby="service-extras">
              <h2 id="service-extras">{t("public.extras")}</h2>
              <ul className="service-extras">
                {s.extras.map((e, i) => (
                  <li key={i}>
                    <span>{e.title}</span>{" "}
                    <span className="muted">
                      +{formatMoney(e.price_cents, i18n.language)} ·{" "}
                      {e.extra_days ? t("public.extra_days", { count: e.extra_days }) : t("public.extra_no_days")}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {s.reviews.length ? (
            <section className="card stack" aria-labelledby="service-reviews">
              <h2 id="service-reviews">{t("order.reviews")}</h2>
              {s.reviews.map((r) => (
                <ReviewItem key={r.id} review={r} />
              ))}
            </section>
          ) : null}
          {s.faq.length ? (
            <section className="card stack" aria-labelledby="service-faq">
              <h2 id="service-faq">{t("public.faq")}</h2>
              {s.faq.map((f, i) => (
                <details key={i} className="service-faq">
                  <summary>{f.question}</summary>
                  <p className="prose">{f.answer}</p>
                </details>
              ))}
            </section>
          ) : null}
        </div>
        <aside className="detail-aside">
          <section className="card side-card stack" aria-labelledby="service-hire">
            <h2 id="service-hire">{t("public.hire_heading")}</h2>
            <p>
              <Trans
                t={t}
                i18nKey="public.hire_text"
                values={{ name: s.freelancer.name }}
                components={[<FreelancerName key="name" freelancer={s.freelancer} />]}
              />
            </p>
            <p className="muted">{viewer === "freelancer" ? t("order.merchants_only") : t("order.sign_in_or_pick")}</p>
            <Link to="/servicos" className="btn btn-ghost btn-block">
              {t("public.see_all")}
            </Link>
          </section>
        </aside>
      </div>
    </PublicFrame>
  );
}

export const ErrorBoundary = PublicErrorBoundary;
