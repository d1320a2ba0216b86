import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { titleMeta } from "~/lib/meta";
import { useRootData } from "~/lib/root-data";

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
  // Signed in, the page sits in the shell's <main> under the top bar's <h1>; a visitor's page is
  // the whole document, so it is its own main landmark and level-one heading.
  const inShell = Boolean(useRootData()?.user);
  const Landmark = inShell ? "div" : "main";
  const Heading = inShell ? "h2" : "h1";
  return (
    <Landmark className="not-found">
      <section className="card narrow center">
        <p className="error-code">404</p>
        <Heading>{t("not_found.title")}</Heading>
        <p className="muted">{t("not_found.text", { path })}</p>
        <Link to="/" className="btn btn-primary">
          {t("not_found.back_home")}
        </Link>
      </section>
    </Landmark>
  );
}
