import type { ReactNode } from "react";
import { Link, useLoaderData, type MetaFunction } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LanguageSwitch } from "~/components/layout/language-switch";
import { PageHeader } from "~/components/ui/page-header";
import { formatDate } from "~/lib/format";
import { useRootData } from "~/lib/root-data";
import { LegalLinks } from "~/components/ui/legal-links";

/**
 * The terms of use and the privacy policy: inside the shell for a signed-in user, on a page of
 * its own (brand, language, the text) for a visitor. `html` is the operator's own Markdown,
 * rendered on the server (content/legal/).
 */
export function LegalPage({
  title,
  version,
  html,
  children,
}: {
  title: string;
  version: string;
  html: string;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  // The version is a date (content/legal/version.txt), shown as the reader writes dates.
  const versionLabel = /^\d{4}-\d{2}-\d{2}$/.test(version)
    ? formatDate(`${version}T12:00:00Z`, i18n.language)
    : version;
  const signedIn = Boolean(useRootData()?.user);
  const body = (
    <>
      <p className="muted small">{t("legal.version", { version: versionLabel })}</p>
      {/* The operator's own text (content/legal/), not user content. */}
      <article className="card legal-text" dangerouslySetInnerHTML={{ __html: html }} />
      {children}
    </>
  );
  if (signedIn) {
    return (
      <div className="page">
        <PageHeader title={title} />
        {body}
      </div>
    );
  }
  return (
    <main className="legal-page">
      <div className="legal-top">
        <Link to="/" className="public-brand">
          <span className="logo-mark" aria-hidden="true">
            F
          </span>{" "}
          Freela
        </Link>
        <LanguageSwitch />
      </div>
      <h1>{title}</h1>
      {body}
      <p className="legal-links">
        <LegalLinks
          extra={
            <Link to="/login" className="link">
              {t("auth.sign_in_link")}
            </Link>
          }
        />
      </p>
    </main>
  );
}

type LegalData = { title: string; version: string; html: string };

/** The document title of /termos and /privacidade: the document's own. */
export const legalMeta: MetaFunction = ({ data }) => [
  { title: `${(data as LegalData | undefined)?.title ?? ""} | Freela` },
];

/** The page of /termos and /privacidade (its loader is `legalLoader`, app/web/legal.server.ts). */
export function LegalDocumentPage() {
  const { title, version, html } = useLoaderData<LegalData>();
  return <LegalPage title={title} version={version} html={html} />;
}
