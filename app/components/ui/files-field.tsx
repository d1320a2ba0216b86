import { useTranslation } from "react-i18next";
import { Field } from "./form";

/** The files of a delivery or a message: several at once, at most `max`, the server checks each by its content. */
export function FilesField({ error, accept, max }: { error?: string; accept?: string; max: number }) {
  const { t } = useTranslation("market");
  return (
    <Field
      name="files"
      type="file"
      multiple
      accept={accept}
      label={t("contract.deliver_files")}
      hint={t("contract.files_hint", { max })}
      error={error}
    />
  );
}
