import { LIMITS } from "~/lib/limits";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, fieldsOf, FieldsForm, FormActions, SubmitButton, TextAreaField } from "~/components/ui/form";
import { MAX_PORTFOLIO_ITEMS } from "~/lib/schemas";
import type { FormErrorData } from "~/web/errors.server";

export type PortfolioItem = {
  id: string;
  title: string;
  description: string;
  link: string | null;
  image_url: string | null;
};

/** A portfolio as others see it. */
export function PortfolioList({ items }: { items: PortfolioItem[] }) {
  return (
    <ul className="portfolio-grid">
      {items.map((item) => (
        <li key={item.id} className="portfolio-item">
          <PortfolioBody item={item} />
        </li>
      ))}
    </ul>
  );
}

function PortfolioBody({ item }: { item: PortfolioItem }) {
  const { t } = useTranslation();
  return (
    <>
      {item.image_url ? <img src={item.image_url} alt="" className="portfolio-image" loading="lazy" /> : null}
      <h4>{item.title}</h4>
      <p className="portfolio-description">{item.description}</p>
      {item.link ? (
        <a href={item.link} rel="noopener noreferrer nofollow ugc" target="_blank" className="portfolio-link">
          {t("portfolio.open_link")}
        </a>
      ) : null}
    </>
  );
}

type ItemFormProps = { item?: PortfolioItem; refusal?: FormErrorData };

/** The fields of an item, to add or to edit one; the page posts them with an `intent`. */
function ItemFields({ item, refusal }: ItemFormProps) {
  const { t } = useTranslation();
  const prefix = item ? `pf-${item.id}-` : "pf-new-";
  const field = fieldsOf(refusal);
  return (
    <>
      <Field
        id={`${prefix}title`}
        {...field("title", item?.title ?? "")}
        label={t("portfolio.title")}
        required
        maxLength={LIMITS.portfolio_title.max}
      />
      <TextAreaField
        id={`${prefix}description`}
        {...field("description", item?.description ?? "")}
        label={t("portfolio.description")}
        required
        rows={3}
        maxLength={LIMITS.portfolio_description.max}
      />
      <Field
        id={`${prefix}link`}
        {...field("link", item?.link ?? "")}
        type="url"
        label={t("portfolio.link")}
        hint={t("portfolio.link_hint")}
        maxLength={LIMITS.portfolio_link.max}
      />
      <Field
        id={`${prefix}image`}
        name="image"
        type="file"
        accept="image/jpeg,image/png,image/webp"
        label={t("portfolio.image")}
        hint={t("fields.photo_hint")}
        error={refusal?.errors?.image}
      />
      {item?.image_url ? (
        <label className="check">
          <input type="checkbox" name="remove_image" value="1" /> {t("portfolio.remove_image")}
        </label>
      ) : null}
    </>
  );
}

/** The portfolio on the settings page: each item with its edit and remove forms, then the add form. */
export function PortfolioEditor({ items, refusal }: { items: PortfolioItem[]; refusal?: FormErrorData }) {
  const { t } = useTranslation();
  const refusedId = refusal?.values?.intent === "portfolio_add" ? "new" : refusal?.values?.id;
  return (
    <section className="card form-card" id="portfolio" aria-labelledby="portfolio-title">
      <h2 id="portfolio-title">{t("portfolio.heading")}</h2>
      <p className="muted">{t("portfolio.intro", { count: items.length, max: MAX_PORTFOLIO_ITEMS })}</p>
      {items.length ? (
        <ul className="portfolio-grid">
          {items.map((item) => (
            <li key={item.id} className="portfolio-item">
              <PortfolioBody item={item} />
              <details open={refusedId === item.id}>
                <summary className="btn btn-ghost btn-sm">{t("portfolio.edit")}</summary>
                <FieldsForm
                  id={`pf-${item.id}`}
                  idPrefix={`pf-${item.id}-`}
                  data={refusedId === item.id ? refusal : null}
                  action="?portfolio"
                  encType="multipart/form-data"
                  className="stack"
                >
                  <input type="hidden" name="intent" value="portfolio_update" />
                  <input type="hidden" name="id" value={item.id} />
                  <ItemFields item={item} refusal={refusedId === item.id ? refusal : undefined} />
                  <SubmitButton label={t("actions.save")} className="btn btn-primary btn-sm" />
                </FieldsForm>
              </details>
              <Form method="post" action="?portfolio" encType="multipart/form-data">
                <input type="hidden" name="intent" value="portfolio_remove" />
                <input type="hidden" name="id" value={item.id} />
                <button type="submit" className="btn btn-sm btn-danger-ghost">
                  {t("portfolio.remove")}
                  <span className="sr-only"> {item.title}</span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      {items.length < MAX_PORTFOLIO_ITEMS ? (
        <>
          <h3>{t("portfolio.add")}</h3>
          <FieldsForm
            id="pf-new"
            idPrefix="pf-new-"
            clearOnSuccess
            data={refusedId === "new" ? refusal : null}
            action="?portfolio"
            encType="multipart/form-data"
            className="stack"
          >
            <input type="hidden" name="intent" value="portfolio_add" />
            <ItemFields refusal={refusedId === "new" ? refusal : undefined} />
            <FormActions label={t("portfolio.add_button")} />
          </FieldsForm>
        </>
      ) : (
        <p className="muted">{t("portfolio.full", { max: MAX_PORTFOLIO_ITEMS })}</p>
      )}
    </section>
  );
}
