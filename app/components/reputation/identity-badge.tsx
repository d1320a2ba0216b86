import { useTranslation } from "react-i18next";

/** "Identidade verificada": an operator checked who this person is (the document is never shown). */
export function IdentityBadge({ verified }: { verified?: boolean }) {
  const { t } = useTranslation("market");
  return verified ? <span className="badge badge-success identity-badge">{t("identity.badge")}</span> : null;
}
