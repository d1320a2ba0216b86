import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { titleMeta } from "~/lib/meta";

export const meta = titleMeta("not_found.title");

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ path: new URL(request.url).pathname }, { status: 404 });
}

export async function action({ request }: LoaderFunctionArgs) {
  return loader({ request, params: {}, context: {} });
}

export default function NotFoundPage() {
  const { t } = useTranslation();
  const { path } = useLoaderData<typeof loader>();
  return (
    <main className="not-found">
      <section className="card narrow center">
        <p className="error-code">404</p>
        <h2>{t("not_found.title")}</h2>
        <p className="muted">{t("not_found.text", { path })}</p>
        <Link to="/" className="btn btn-primary">
          {t("not_found.back_home")}
        </Link>
      </section>
    </main>
  );
}
