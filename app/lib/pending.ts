import { useActionData, useFormAction, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * Whether this form is the one being sent, so one form posting does not mark every other form
 * of the page busy. A form posts to its route's action (`action` when it names another);
 * several forms of one page tell themselves apart by their hidden `intent`:
 * - `usePending()`: any submission to this action;
 * - `usePending("deliver")`: a submission carrying intent=deliver;
 * - `usePending(null)`: a submission without an intent (the page's main form).
 */
export function usePending(intent?: string | null, { action }: { action?: string } = {}) {
  const navigation = useNavigation();
  const here = useFormAction(action);
  if (navigation.state !== "submitting" || navigation.formAction !== here) return false;
  if (intent === undefined) return true;
  const sent = navigation.formData?.get("intent") ?? null;
  return sent === intent;
}

/**
 * Clears a form once its post succeeded, as the page reloaded without JavaScript does: with
 * JavaScript the page is not rebuilt after the post/redirect/get, so the form would keep what was
 * sent (a message could go twice). A refused post comes back as action data with errors and keeps
 * what was typed. Spread the result on the form.
 */
export function useClearOnSuccess() {
  const ref = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  const navigation = useNavigation();
  const data = useActionData<{ errors?: unknown; message?: unknown } | undefined>();
  useEffect(() => {
    if (navigation.state !== "idle" || !sent.current) return;
    sent.current = false;
    if (!data || (!data.errors && !data.message)) ref.current?.reset();
  }, [navigation.state, data]);
  return { ref, onSubmit: () => void (sent.current = true) };
}
