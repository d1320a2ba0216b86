import { useEffect, useState } from "react";

/**
 * False on the server and in the first render in the browser, true once React has taken the page
 * over: a control that needs JavaScript (a real button in place of a no-script label) shows then.
 */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
