import { useTranslation } from "react-i18next";
import { Field } from "./form";

/**
 * The files of a delivery, a message or a dispute: several at once, at most `max`, the server checks
 * each by its content. `id` and `label` where a page has another files field (a contract's dispute).
 */
export function FilesField({
  error,
  accept,
  max,
  id,
  label,
}: {
  error?: string;
  accept?: string;
  max: number;
  id?: string;
  label?: string;
}) {
  const { t } = useTranslation("market");
  return (
    <Field
      name="files"
      id={id}
      type="file"
      multiple
      accept={accept}
      label={label ?? t("contract.deliver_files")}
      hint={t("contract.files_hint", { max })}
      error={error}
    />
  );
}
