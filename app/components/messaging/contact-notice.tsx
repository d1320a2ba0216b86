import { useTranslation } from "react-i18next";
import type { FormErrorData } from "~/web/errors.server";

/**
 * Inside a form refused for a contact before funding (422 contact_detected): edit the text and
 * send again, or send it as it is (the form posts again with confirm_contact=1; works without
 * JavaScript). The notice itself is the text field's error.
 */
export function ContactNotice({ refusal }: { refusal: FormErrorData | null | undefined }) {
  const { t } = useTranslation("market");
  if (refusal?.code !== "contact_detected") return null;
  return (
    <div className="notice notice-warning" role="note">
      <p>{t("contact.edit_or_send")}</p>
      <button type="submit" name="confirm_contact" value="1" className="btn btn-secondary">
        {t("contact.send_anyway")}
      </button>
    </div>
  );
}
