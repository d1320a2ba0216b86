import { json, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { requireOperator } from "~/web/operator.server";
import adminStyles from "~/styles/admin.css";

// The operator console: every page under /admin. The shell shows the console's menu to an
// operator (app/components/admin/nav.ts). Each page's loader and action call requireOperator
// themselves (Remix runs them alongside this one, not after it); this one keeps the console's
// error page looking like any other not-found page for those who are not operators.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  return json(null);
}

export default function AdminLayout() {
  return <Outlet />;
}

export const ErrorBoundary = MarketErrorBoundary;
