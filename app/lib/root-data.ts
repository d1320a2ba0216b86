import { useRouteLoaderData } from "@remix-run/react";
import type { loader } from "~/root";

/** The root loader's data: locale, the signed-in user (or null), the pending toast. */
export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export type RootData = NonNullable<ReturnType<typeof useRootData>>;
