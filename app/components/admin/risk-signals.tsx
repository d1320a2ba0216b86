import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/lib/format";
import type { RiskSignalsJson } from "~/services/operator/risk-signals.server";
import { TableCard } from "./ui";

/** A count, marked when it is not zero. */
function Count({ n }: { n: number }) {
  return <span className={n > 0 ? "state-tag is-danger" : undefined}>{n}</span>;
}

/** The "Sinais de risco" section of an account's console page (docs/product.md, "Sinais de risco"). */
export function RiskSignals({ userId, risk }: { userId: string; risk: RiskSignalsJson }) {
  const { t, i18n } = useTranslation("admin");
  const shared = risk.shared_documents;
  return (
    <TableCard caption={t("risk.title")}>
      <thead>
        <tr>
          <th scope="col">{t("risk.signal")}</th>
          <th scope="col" className="num">
            {t("risk.count")}
          </th>
          <th scope="col">{t("risk.detail")}</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">{t("risk.shared_documents")}</th>
          <td className="num">
            <Count n={shared.length} />
          </td>
          <td>
            {shared.length ? (
              <ul className="context-list">
                {shared.map((s) => (
                  <li key={`${s.id}:${s.via}`}>
                    <Link to={`/admin/users/${s.id}`} className="link">
                      {s.name}
                    </Link>{" "}
                    · {t(`risk.via.${s.via}`)}
                  </li>
                ))}
              </ul>
            ) : (
              t("risk.none")
            )}
          </td>
        </tr>
        <tr>
          <th scope="row">{t("risk.reports_received")}</th>
          <td className="num">
            <Count n={risk.reports_received.total} />
          </td>
          <td>
            {t("risk.reports_open", { count: risk.reports_received.open })} ·{" "}
            <Link to={`/admin/reports?author=${userId}`} className="link">
              {t("risk.reports_link")}
            </Link>
          </td>
        </tr>
        <tr>
          <th scope="row">{t("risk.masked_contacts")}</th>
          <td className="num">
            <Count n={risk.masked_contacts} />
          </td>
          <td />
        </tr>
        <tr>
          <th scope="row">{t("risk.disputes_lost")}</th>
          <td className="num">
            <Count n={risk.disputes_lost} />
          </td>
          <td />
        </tr>
        <tr>
          <th scope="row">{t("risk.refunds")}</th>
          <td className="num">
            <Count n={risk.refunds.count} />
          </td>
          <td>{risk.refunds.count ? formatMoney(risk.refunds.amount_cents, i18n.language) : null}</td>
        </tr>
      </tbody>
    </TableCard>
  );
}
