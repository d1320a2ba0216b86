import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FieldsForm, FormActions, FormMessage } from "~/components/ui/form";
import { SERVICE_LIMITS } from "~/lib/service-schemas";
import type { FormErrorData } from "~/web/errors.server";

type Image = { id: string; url: string; position: number };

/** A service's images on its page: the first large, the others beside it, each opening in full. */
export function ServiceGallery({ images, title }: { images: Image[]; title: string }) {
  const { t } = useTranslation("services");
  if (!images.length) return null;
  return (
    <ul className="service-gallery" aria-label={t("public.images")}>
      {images.map((image, i) => (
        <li key={image.id}>
          <a href={image.url} target="_blank" rel="noopener">
            <img
              src={image.url}
              alt={t("public.image_alt", { title, n: i + 1, total: images.length })}
              loading={i === 0 ? "eager" : "lazy"}
            />
          </a>
        </li>
      ))}
    </ul>
  );
}

/** One-button form of the images' editor, posting to the page's `?imagens` door. */
function ImageButton({
  intent,
  image,
  position,
  label,
  children,
  className = "btn btn-ghost btn-sm",
}: {
  intent: string;
  image: string;
  position?: number;
  label: string;
  children: string;
  className?: string;
}) {
  return (
    <Form method="post" action="?imagens">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="image" value={image} />
      {position === undefined ? null : <input type="hidden" name="position" value={position} />}
      <button type="submit" className={className} aria-label={label}>
        {children}
      </button>
    </Form>
  );
}

/**
 * The owner's images of a service (/meus-servicos/:id): each with its buttons to move it up or
 * down and to remove it, then the form adding one (multipart, no JavaScript needed). Apart from the
 * service's form, so what is typed there is never lost by an image's post.
 */
export function ServiceImagesEditor({ images, refusal }: { images: Image[]; refusal: FormErrorData | null }) {
  const { t } = useTranslation("services");
  const max = SERVICE_LIMITS.images;
  return (
    <section className="card form-card stack" id="imagens" aria-labelledby="service-images-title">
      <h2 id="service-images-title">{t("mine.images.heading")}</h2>
      <p className="muted">{t("mine.images.intro", { count: images.length, max })}</p>
      {refusal?.values?.intent !== "image_add" ? <FormMessage data={refusal} /> : null}
      {images.length ? (
        <ol className="service-images-edit">
          {images.map((image, i) => {
            const n = i + 1;
            return (
              <li key={image.id}>
                <img src={image.url} alt={t("mine.images.alt", { n })} loading="lazy" />
                <div className="service-images-actions">
                  {i === 0 ? <span className="tag">{t("mine.images.cover")}</span> : null}
                  {i > 0 ? (
                    <ImageButton
                      intent="image_move"
                      image={image.id}
                      position={i - 1}
                      label={t("mine.images.up_label", { n })}
                    >
                      {t("mine.images.up")}
                    </ImageButton>
                  ) : null}
                  {i < images.length - 1 ? (
                    <ImageButton
                      intent="image_move"
                      image={image.id}
                      position={i + 1}
                      label={t("mine.images.down_label", { n })}
                    >
                      {t("mine.images.down")}
                    </ImageButton>
                  ) : null}
                  <ImageButton
                    intent="image_remove"
                    image={image.id}
                    label={t("mine.images.remove_label", { n })}
                    className="btn btn-sm btn-danger-ghost"
                  >
                    {t("mine.images.remove")}
                  </ImageButton>
                </div>
              </li>
            );
          })}
        </ol>
      ) : null}
      {images.length < max ? (
        <FieldsForm
          id="service-image"
          idPrefix="service-image-"
          clearOnSuccess
          data={refusal?.values?.intent === "image_add" ? refusal : null}
          action="?imagens"
          encType="multipart/form-data"
          className="stack"
        >
          <input type="hidden" name="intent" value="image_add" />
          <Field
            id="service-image-image"
            name="image"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            label={t("mine.images.file")}
            hint={t("mine.images.hint", { max })}
            error={refusal?.values?.intent === "image_add" ? refusal.errors?.image : undefined}
          />
          <FormActions label={t("mine.images.add")} className="btn btn-secondary" />
        </FieldsForm>
      ) : null}
    </section>
  );
}
