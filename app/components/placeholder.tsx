import { useTranslation } from "react-i18next";

/** A page whose feature is not built yet; the navigation to it already works. */
export function Placeholder({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <div className="page">
      <section className="card empty-state">
        <h2>{t(titleKey)}</h2>
        <p className="muted">{t("placeholder.text")}</p>
      </section>
    </div>
  );
}
