import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ServiceForm } from "~/components/catalog/service-form";
import { ServiceImagesEditor } from "~/components/catalog/service-images";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { ConfirmLink, ConfirmPanel } from "~/components/ui/confirm";
import { Alert, FormMessage } from "~/components/ui/form";
import { Breadcrumb, PageHeader } from "~/components/ui/page-header";
import { marketTitleMeta } from "~/lib/market-meta";
import {
  archiveService,
  deleteService,
  getService,
  pauseService,
  publishService,
  updateService,
} from "~/services/catalog/services.server";
import { addServiceImage, moveServiceImage, removeServiceImage } from "~/services/catalog/service-images.server";
import { AppError } from "~/services/platform/errors.server";
import { fileOf, readForm, readPhotoForm } from "~/web/bodies.server";
import { requireUserFor } from "~/web/auth.server";
import { orRefusal } from "~/web/errors.server";
import { intentAction } from "~/web/intent-action.server";
import { pageId } from "~/web/params.server";
import { SERVICE_FORM_PRICES, serviceFormInput, serviceFormStep, serviceFormValues } from "~/web/service-form.server";

export const meta = marketTitleMeta("services:mine.edit_title");

/** The owner's service, any state; someone else's (even published) is not found here. */
async function ownService(request: Request, id: string) {
  const user = await requireUserFor(request, "service.manage");
  const service = await orRefusal(
    getService(user, id).then((s) => {
      if (s.freelancer.id !== user.id) throw new AppError(404, "not_found");
      return s;
    }),
  );
  return { user, service };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { service: s } = await ownService(request, pageId(params, "id"));
  return json({
    id: s.id,
    title: s.title,
    path: `/servicos/${s.slug}-${s.id}`,
    status: s.status,
    moderation: s.moderation ?? null,
    allowed_actions: s.allowed_actions,
    values: serviceFormValues(s),
    images: s.images ?? [],
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserFor(request, "service.manage");
  const id = pageId(params, "id");
  const here = `/meus-servicos/${id}`;
  const step = await serviceFormStep(request);
  if (step) return step;
  const images = (toast: string) => ({ toast, to: `${here}#imagens` });
  const save = ({ values }: { values: Record<string, string> }) => updateService(user, id, serviceFormInput(values));
  return intentAction(
    request,
    {
      here,
      toasts: "services",
      prices: SERVICE_FORM_PRICES,
      // The images' forms post to `?imagens`: the one adding an image is multipart.
      body: (request) =>
        new URL(request.url).searchParams.has("imagens") ? readPhotoForm(request, "image") : readForm(request),
    },
    {
      save: { run: save, toast: "service_updated" },
      // Saved, then published: refused (the limit of 20), the changes stay saved and the form says why.
      save_publish: {
        run: async (input) => publishService(user, (await save(input)).id),
        toast: "service_published",
        to: "/meus-servicos",
      },
      publish: { run: () => publishService(user, id), toast: "service_published" },
      pause: { run: () => pauseService(user, id), toast: "service_paused" },
      archive: {
        confirm: true,
        run: () => archiveService(user, id),
        toast: "service_archived_done",
        to: "/meus-servicos",
      },
      delete: { confirm: true, run: () => deleteService(user, id), toast: "service_deleted", to: "/meus-servicos" },
      image_add: { run: ({ form }) => addServiceImage(user, id, fileOf(form, "image")), ...images("image_added") },
      image_remove: {
        run: ({ values }) => removeServiceImage(user, id, values.image ?? ""),
        ...images("image_removed"),
      },
      image_move: {
        run: ({ values }) => moveServiceImage(user, id, values.image ?? "", values),
        ...images("image_moved"),
      },
    },
  );
}

const MOVES = ["publish", "pause", "archive", "delete"];
const IMAGE_INTENTS = ["image_add", "image_remove", "image_move"];

export default function EditServicePage() {
  const { t } = useTranslation("services");
  const s = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const here = `/meus-servicos/${s.id}`;
  const can = (action: string) => s.allowed_actions.includes(action as (typeof s.allowed_actions)[number]);
  // A refusal of a move (not of the form) is the page's message.
  const intent = data?.values?.intent ?? "";
  const imageData = data && IMAGE_INTENTS.includes(intent) ? data : null;
  const formData = data && !MOVES.includes(intent) && !imageData ? data : null;
  return (
    <div className="page">
      <Breadcrumb>
        <Link to="/meus-servicos">{t("mine.title")}</Link>
      </Breadcrumb>
      <PageHeader
        title={s.title}
        intro={t(`public.preview_status.${s.status}`)}
        actions={
          <>
            {s.status === "published" && !s.moderation?.hidden ? (
              <Link to={s.path} className="btn btn-ghost">
                {t("mine.actions.view")}
              </Link>
            ) : null}
            {can("publish") ? (
              <Form method="post">
                <button type="submit" name="intent" value="publish" className="btn btn-ghost">
                  {t("mine.actions.publish")}
                </button>
              </Form>
            ) : null}
            {can("pause") ? (
              <Form method="post">
                <button type="submit" name="intent" value="pause" className="btn btn-ghost">
                  {t("mine.actions.pause")}
                </button>
              </Form>
            ) : null}
            {can("archive") ? (
              <ConfirmLink from={here} intent="archive">
                {t("mine.actions.archive")}
              </ConfirmLink>
            ) : null}
            {can("delete") ? (
              <ConfirmLink from={here} intent="delete">
                {t("mine.actions.delete")}
              </ConfirmLink>
            ) : null}
          </>
        }
      />
      {data && !formData && !imageData ? <FormMessage data={data} /> : null}
      <ConfirmPanel ns="services" intent="archive" cancelHref={here} allowed={can("archive")} />
      <ConfirmPanel ns="services" intent="delete" cancelHref={here} allowed={can("delete")} />
      {s.moderation?.hidden ? (
        <Alert type="danger">{t("mine.hidden", { reason: s.moderation.hidden_reason ?? "" })}</Alert>
      ) : null}
      {s.status === "pending" ? <p className="field-hint">{t("mine.pending_note")}</p> : null}
      {can("edit") ? (
        <section className="card form-card">
          <ServiceForm
            values={s.values}
            data={formData}
            cancelHref="/meus-servicos"
            draft={s.status === "draft"}
            publishable={can("publish")}
          />
        </section>
      ) : (
        <p className="muted">{t("mine.archived_note")}</p>
      )}
      {can("edit") ? <ServiceImagesEditor images={s.images} refusal={imageData} /> : null}
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
