import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDate } from "~/lib/format";
import { formatMoney } from "~/lib/money";
import type { NotaJson } from "~/services/fiscal/nota-views.server";
import { DataTable } from "~/components/ui/data-table";

// The notas fiscais as the freelancer (/financeiro/notas), the merchant (the contract's page) and
// the operator (/admin/notas) see them: status, chave de acesso, the XML and the DANFSe.

const TONE: Record<string, string> = { issued: "badge-success", rejected: "badge-warning", failed: "badge-warning" };

/** The status in words, with the Sefin's error for a rejected or failed nota. */
export function NotaStatus({ nota }: { nota: Pick<NotaJson, "status" | "error_code" | "error_message"> }) {
  const { t } = useTranslation("market");
  const failed = nota.status === "rejected" || nota.status === "failed";
  return (
    <span className="nota-status">
      <span className={`badge ${TONE[nota.status] ?? ""}`}>{t(`notas.status.${nota.status}`)}</span>
      {failed && (nota.error_code || nota.error_message) ? (
        <span className="small prewrap">
          {nota.error_code ? <code>{nota.error_code}</code> : null} {nota.error_message}
        </span>
      ) : null}
    </span>
  );
}

/** "Baixar XML" and the DANFSe at the ADN, once the nota has them. */
export function NotaLinks({ nota, xmlHref }: { nota: NotaJson; xmlHref: string | null }) {
  const { t } = useTranslation("market");
  if (!nota.has_xml && !nota.danfse_url) return <span className="muted">—</span>;
  return (
    <span className="inline-links">
      {nota.has_xml && xmlHref ? (
        <a href={xmlHref} className="link" download>
          {t("notas.xml")}
        </a>
      ) : null}
      {nota.danfse_url ? (
        <a href={nota.danfse_url} className="link" target="_blank" rel="noreferrer noopener">
          {t("notas.danfse")}
        </a>
      ) : null}
    </span>
  );
}

/** "Emitir de novo": a form posting `intent=reissue` with the nota's id. */
export function ReissueForm({ id, busy }: { id: string; busy: boolean }) {
  const { t } = useTranslation("market");
  return (
    <Form method="post">
      <input type="hidden" name="id" value={id} />
      <button type="submit" name="intent" value="reissue" className="btn btn-secondary btn-sm" disabled={busy}>
        {t("notas.reissue")}
      </button>
    </Form>
  );
}

/**
 * The notas as a table: date, kind, contract, amount, status (with the error), chave and links;
 * `reissuable` says which rows get "emitir de novo".
 */
export function NotasTable({
  notas,
  caption,
  xmlHref,
  reissuable = () => false,
  busy = false,
  showContract = true,
}: {
  notas: NotaJson[];
  caption: string;
  xmlHref: (nota: NotaJson) => string | null;
  reissuable?: (nota: NotaJson) => boolean;
  busy?: boolean;
  showContract?: boolean;
}) {
  const { t, i18n } = useTranslation("market");
  const columns = [
    t("notas.date"),
    t("notas.kind"),
    ...(showContract ? [t("notas.contract")] : []),
    t("notas.amount"),
    t("notas.status_heading"),
    t("notas.access_key"),
    t("notas.files"),
  ];
  return (
    <DataTable caption={caption} columns={columns}>
      {notas.map((nota) => (
        <tr key={nota.id}>
          <td data-label={columns[0]}>{formatDate(`${nota.competence}T12:00:00Z`, i18n.language)}</td>
          <td data-label={columns[1]}>{t(`notas.kinds.${nota.kind}`)}</td>
          {showContract ? (
            <td data-label={t("notas.contract")}>
              <span>
                <Link to={`/contracts/${nota.contract.id}`} className="link">
                  {nota.contract.title}
                </Link>
                {nota.milestone ? <span className="muted small"> · {nota.milestone}</span> : null}
              </span>
            </td>
          ) : null}
          <td data-label={t("notas.amount")}>{formatMoney(nota.amount_cents, i18n.language)}</td>
          <td data-label={t("notas.status_heading")}>
            <div className="nota-status">
              <NotaStatus nota={nota} />
              {reissuable(nota) ? <ReissueForm id={nota.id} busy={busy} /> : null}
            </div>
          </td>
          <td data-label={t("notas.access_key")}>
            {nota.access_key ? <code className="nota-key small">{nota.access_key}</code> : "—"}
          </td>
          <td data-label={t("notas.files")}>
            <NotaLinks nota={nota} xmlHref={xmlHref(nota)} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
