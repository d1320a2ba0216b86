import { useFormAction, useNavigation } from "@remix-run/react";

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
