import type { ReactNode } from "react";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** "Termos de uso · Política de privacidade" (and what follows), for the footers of every frame. */
export function LegalLinks({ extra }: { extra?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <Link to="/termos" className="link">
        {t("legal.terms")}
      </Link>{" "}
      ·{" "}
      <Link to="/privacidade" className="link">
        {t("legal.privacy")}
      </Link>
      {extra ? <> · {extra}</> : null}
    </>
  );
}
