import { ShareButton } from "~/components/ui/copy-button";
import { Field } from "~/components/ui/form";

/**
 * A public page's address to share: a read-only field (selected on focus; on a phone the system's
 * copy works on it, and no script is needed), a share button (the system's sheet, or a copy) with
 * JavaScript, and a link that opens it.
 */
export function ShareCard({
  url,
  heading,
  label,
  hint,
  open,
}: {
  url: string;
  heading: string;
  label: string;
  hint: string;
  open: string;
}) {
  return (
    <section className="card side-card" aria-labelledby="share-heading">
      <h3 id="share-heading">{heading}</h3>
      <Field
        name="share_url"
        id="share-url"
        label={label}
        hint={hint}
        type="url"
        readOnly
        value={url}
        onFocus={(event) => event.currentTarget.select()}
      />
      <p className="share-actions">
        <ShareButton url={url} title={heading} />{" "}
        <a href={url} className="link">
          {open}
        </a>
      </p>
    </section>
  );
}
