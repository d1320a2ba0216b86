import { useTranslation } from "react-i18next";
import type { FormErrorData } from "~/web/errors.server";

/**
 * Inside a form refused for a contact before funding (422 contact_detected): edit the text and
 * send again, or send it as it is (the form posts again with confirm_contact=1; works without
 * JavaScript). The notice itself is the text field's error. A message's files are kept by the
 * server and come along by their ids (pending_files).
 */
export function ContactNotice({ refusal }: { refusal: FormErrorData | null | undefined }) {
  const { t } = useTranslation("market");
  if (refusal?.code !== "contact_detected") return null;
  return (
    <div className="notice notice-warning" role="note">
      <p>{t("contact.edit_or_send")}</p>
      {refusal.pending_files?.length ? (
        <p className="small">
          {/* The files come along by their ids: a form without JavaScript cannot send them twice. */}
          <input type="hidden" name="pending_files" value={refusal.pending_files.map((f) => f.id).join(",")} />
          {t("contact.files_kept", { names: refusal.pending_files.map((f) => f.name).join(", ") })}
        </p>
      ) : null}
      <button type="submit" name="confirm_contact" value="1" className="btn btn-secondary">
        {t("contact.send_anyway")}
      </button>
    </div>
  );
}
