import { flatRoutes } from "remix-flat-routes";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Routes come from remix-flat-routes below (hybrid "+" folders: app/routes/<feature>+/,
  // app/routes/api+/<feature>+/), so Remix's own convention reads no file.
  ignoredRouteFiles: ["**/*"],
  routes: async (defineRoutes) =>
    flatRoutes("routes", defineRoutes, { ignoredRouteFiles: ["**/.*", "**/*.test.*", "**/*.css"] }),
  serverModuleFormat: "esm",
  // remix-i18next 6 and file-type ship ESM only; bundle them into the server build.
  serverDependenciesToBundle: [/^remix-i18next/],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    // Single fetch and route config need the Vite compiler; this app uses the classic one.
    v3_singleFetch: false,
    v3_routeConfig: false,
  },
};
