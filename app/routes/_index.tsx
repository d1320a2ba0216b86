// The default route: the same list as /opportunities, under its own title, 'Minhas Oportunidades'.
import { marketTitleMeta } from "~/lib/market-meta";

export { loader, default, ErrorBoundary } from "./opportunities+/_index";

export const meta = marketTitleMeta("titles.home");
