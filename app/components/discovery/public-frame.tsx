import { isRouteErrorResponse, Link, NavLink, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { LanguageSwitch } from "~/components/layout/language-switch";
import { useRootData } from "~/lib/root-data";

/** The address of the login page that comes back to `path` once signed in. */
export const loginHref = (path: string) => `/login?redirectFrom=${encodeURIComponent(path)}`;

/**
 * The address of the sign-up page that comes back to `path` once the account exists (signed in),
 * the account type chosen beforehand when the page knows it (a vaga: freelancer; a profile: merchant).
 */
export const registerHref = (path: string, accountType?: "freelancer" | "merchant") =>
  `/register?redirectFrom=${encodeURIComponent(path)}${accountType ? `&tipo=${accountType}` : ""}`;

/**
 * The two ways in for a visitor, each coming back to `here`: sign in, then sign up (as `accountType`
 * when the page knows it); `className` gives each link's look, `loginLabel` the first one's words.
 */
export function WayIn({
  here,
  accountType,
  loginLabel,
  className: [login, register],
}: {
  here: string;
  accountType?: "freelancer" | "merchant";
  loginLabel?: string;
  className: [string, string];
}) {
  const { t } = useTranslation();
  const links = [
    { to: loginHref(here), className: login, label: loginLabel ?? t("public.login") },
    { to: registerHref(here, accountType), className: register, label: t("public.register") },
  ];
  return (
    <>
      {links.map((link) => (
        <Link key={link.to} to={link.to} className={link.className}>
          {link.label}
        </Link>
      ))}
    </>
  );
}

/**
 * A public page's call to action, beside its content: for a visitor, `visitor`'s intro and the ways
 * in (back to `here`, signing up as `accountType`); signed in, `signedIn`; then what both see.
 */
export function PublicCta({
  title,
  visitor,
  signedIn,
  children,
}: {
  title: string;
  visitor: { intro: string; here: string; accountType: "freelancer" | "merchant"; loginLabel: string } | null;
  signedIn: ReactNode;
  children?: ReactNode;
}) {
  return (
    <aside className="detail-aside">
      <section className="card side-card stack" aria-labelledby="public-cta">
        <h2 id="public-cta">{title}</h2>
        {visitor ? (
          <>
            <p className="muted">{visitor.intro}</p>
            <WayIn
              here={visitor.here}
              accountType={visitor.accountType}
              loginLabel={visitor.loginLabel}
              className={["btn btn-primary btn-block", "btn btn-ghost btn-block"]}
            />
          </>
        ) : (
          signedIn
        )}
        {children}
      </section>
    </aside>
  );
}

/** The public lists a visitor may browse, named in the top bar (`nav`) and on the home page (`home`). */
export const BROWSE = [
  { to: "/vagas", nav: "public.nav_opportunities", home: "home.browse_opportunities" },
  { to: "/perfis", nav: "public.nav_freelancers", home: "home.browse_freelancers" },
  { to: "/servicos", nav: "public.nav_services", home: "home.browse_services" },
] as const;

/**
 * The frame of a public page: for a visitor, a top bar of its own (the brand, the language, sign
 * in and sign up) and the page's main landmark; signed in, the app's frame has both already.
 */
export function PublicFrame({ signedIn, here, children }: { signedIn: boolean; here: string; children: ReactNode }) {
  const { t } = useTranslation();
  if (signedIn) return <div className="page public-page">{children}</div>;
  return (
    <>
      <header className="public-bar">
        <Link to="/" className="public-brand">
          <span className="logo-mark" aria-hidden="true">
            F
          </span>{" "}
          Freela
        </Link>
        <nav className="public-bar-links public-bar-browse" aria-label={t("public.browse_nav")}>
          {BROWSE.map((link) => (
            <NavLink key={link.to} to={link.to} className="public-bar-link">
              {t(link.nav)}
            </NavLink>
          ))}
        </nav>
        <nav className="public-bar-links" aria-label={t("public.account_nav")}>
          <LanguageSwitch />
          <WayIn here={here} className={["btn btn-ghost btn-sm", "btn btn-secondary btn-sm"]} />
        </nav>
      </header>
      <main id="main" className="page public-page">
        {children}
      </main>
    </>
  );
}

/** JSON-LD in a data block; `<`, `>` and `&` are escaped so no text in it can close the script. */
export function JsonLd({ data }: { data: unknown }) {
  const text = JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: text }} />;
}

/**
 * A public page that cannot be shown (not found, public pages off): signed in, the app's own
 * error page; for a visitor, the public frame with the page's heading and a way to sign in.
 */
export function PublicErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const signedIn = Boolean(useRootData()?.user);
  if (signedIn) return <MarketErrorBoundary />;
  // In the browser only: the server logged it already (entry.server handleError), as JSON.
  if (typeof document !== "undefined" && !isRouteErrorResponse(error)) console.error(error);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <PublicFrame signedIn={false} here="/">
      <section className="card narrow center stack">
        <p className="error-code">{status}</p>
        <h1>{status === 404 ? t("not_found.title") : t("errors.generic_title")}</h1>
        <p className="muted">{status === 404 ? t("public.not_found_text") : t("errors.generic_text")}</p>
      </section>
    </PublicFrame>
  );
}
