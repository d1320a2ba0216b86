import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CardFacts, CardSummary } from "~/components/marketplace/opportunity-card";
import { PageHeader } from "~/components/ui/page-header";
import type { PublicOpportunityItem } from "~/services/discovery/public.server";
import { WayIn } from "./public-frame";

/** An open opportunity in the visitors' list: its public fields, leading to its public page. */
export function PublicOpportunityCard({ item }: { item: PublicOpportunityItem }) {
  const { t } = useTranslation("market");
  const { t: tc } = useTranslation();
  return (
    <article className="card opp-card">
      <CardSummary item={item} to={item.path} />
      <CardFacts item={item}>
        <li>{tc("public.posted_by", { name: item.merchant.name })}</li>
      </CardFacts>
      <div className="opp-card-foot">
        <span />
        <Link to={item.path} className="btn btn-secondary btn-sm">
          {t("list.view")}
          <span className="visually-hidden">: {item.title}</span>
        </Link>
      </div>
    </article>
  );
}

/**
 * A visitor's way in from a public list: sign in or create an account, and come back to `here`
 * (the list with its filters). Signed in, nothing.
 */
export function PublicListCallout({
  here,
  signedIn,
  text,
  accountType,
}: {
  here: string;
  signedIn: boolean;
  text: ReactNode;
  accountType: "freelancer" | "merchant";
}) {
  const { t } = useTranslation();
  if (signedIn) return null;
  return (
    <section className="card public-callout" aria-label={t("public.callout_label")}>
      <p>{text}</p>
      <div className="button-row">
        <WayIn
          here={here}
          accountType={accountType}
          className={["btn btn-primary btn-sm", "btn btn-secondary btn-sm"]}
        />
      </div>
    </section>
  );
}

/** A public list's heading: the page's h1 for a visitor (their frame has none); the app's page header signed in. */
export function PublicListHeader({ signedIn, title, intro }: { signedIn: boolean; title: string; intro: string }) {
  if (signedIn) return <PageHeader title={title} intro={intro} />;
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        <p className="muted">{intro}</p>
      </div>
    </header>
  );
}
