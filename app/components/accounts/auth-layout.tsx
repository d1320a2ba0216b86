import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LanguageSwitch } from "~/components/layout/language-switch";
import { LegalLinks } from "~/components/ui/legal-links";

/** The frame of the visitor pages: brand panel beside a form card. */
export function AuthLayout({
  title,
  subtitle,
  footer,
  children,
}: {
  title: string;
  subtitle?: string;
  /** Under the card's content: the link to the other visitor pages. */
  footer?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <main className="auth-page">
      <div className="auth-wrap">
        <section className="auth-brand" aria-hidden="true">
          <div className="auth-brand-logo">
            <span className="logo-mark">F</span> Freela
          </div>
          <p className="auth-brand-tagline">{t("auth.tagline")}</p>
          <ul className="auth-brand-points">
            <li>{t("auth.point_publish")}</li>
            <li>{t("auth.point_apply")}</li>
            <li>{t("auth.point_negotiate")}</li>
          </ul>
        </section>
        <section className="card auth-card">
          <div className="auth-card-top">
            <span className="auth-mobile-logo">
              <span className="logo-mark">F</span> Freela
            </span>
            <LanguageSwitch />
          </div>
          <h1>{title}</h1>
          {subtitle ? <p className="muted">{subtitle}</p> : null}
          {children}
          {footer ? <p className="auth-switch">{footer}</p> : null}
          <p className="auth-legal small">
            <LegalLinks />
          </p>
        </section>
      </div>
    </main>
  );
}

/**
 * A page that a link from an e-mail opens, signed in or not (confirming an address, ending a
 * session): the visitor frame, or, signed in, a card in the app's frame (which has its own main
 * landmark).
 */
export function AccountFrame({ signedIn, title, children }: { signedIn: boolean; title: string; children: ReactNode }) {
  if (!signedIn) return <AuthLayout title={title}>{children}</AuthLayout>;
  return (
    <div className="page">
      <section className="card form-card stack">
        <h2>{title}</h2>
        {children}
      </section>
    </div>
  );
}
