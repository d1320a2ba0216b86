import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/lib/format";
import type { MemberIdentityJson } from "~/services/operator/members.server";

const TONE: Record<MemberIdentityJson["status"], string> = {
  none: "",
  pending: " is-warning",
  verified: "",
  rejected: " is-danger",
};

/** The identity section of an account's console page: its state, the decision, the document masked. */
export function MemberIdentity({ userId, identity: i }: { userId: string; identity: MemberIdentityJson }) {
  const { t, i18n } = useTranslation("admin");
  return (
    <section className="card queue-item" aria-labelledby="identity-title">
      <h3 id="identity-title">{t("users.identity.title")}</h3>
      <dl className="admin-facts">
        <dt>{t("users.identity.state")}</dt>
        <dd>
          <span className={`state-tag${TONE[i.status]}`}>{t(`users.identity.statuses.${i.status}`)}</span>
          {i.status === "pending" ? (
            <>
              {" "}
              <Link to={`/admin/identity#identity-${userId}`} className="link">
                {t("users.identity.queue_link")}
              </Link>
            </>
          ) : null}
        </dd>
        {i.document_masked ? (
          <>
            <dt>{t(i.kind === "company" ? "identity.cnpj" : "identity.cpf")}</dt>
            <dd className="mono">{i.document_masked}</dd>
          </>
        ) : null}
        {i.decided_at ? (
          <>
            <dt>{t("users.identity.decided_at")}</dt>
            <dd>{formatDateTime(i.decided_at, i18n.language)}</dd>
          </>
        ) : null}
        {i.reason ? (
          <>
            <dt>{t("reports.reason")}</dt>
            <dd className="prewrap">{i.reason}</dd>
          </>
        ) : null}
        <dt>{t("users.identity.shared")}</dt>
        <dd>
          {i.shared_with ? (
            <span className="state-tag is-danger">{t("users.identity.shared_with", { count: i.shared_with })}</span>
          ) : (
            t("users.identity.not_shared")
          )}
        </dd>
      </dl>
    </section>
  );
}
