import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The links back to where a detail page came from; named, so it is told apart from the main menu. */
export function Breadcrumb({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <nav className="breadcrumb" aria-label={t("nav.breadcrumb")}>
      {children}
    </nav>
  );
}

/** The heading of a content page, with its intro line and its main actions on the right. */
export function PageHeader({
  title,
  intro,
  actions,
  children,
}: {
  title: ReactNode;
  intro?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div>
        <h2>{title}</h2>
        {intro ? <p className="muted">{intro}</p> : null}
        {children}
      </div>
      {actions ? <div className="page-header-actions">{actions}</div> : null}
    </header>
  );
}

export function EmptyState({ title, text, action }: { title: string; text?: string; action?: ReactNode }) {
  return (
    <section className="card empty-state">
      <div className="empty-icon" aria-hidden="true">
        ∅
      </div>
      <h3>{title}</h3>
      {text ? <p className="muted">{text}</p> : null}
      {action}
    </section>
  );
}
