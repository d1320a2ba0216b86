// Operator accounts, from the command line (they are never chosen at registration):
//   npm run operator:create -- --email ops@example.com --name "Nome Completo"
//     makes the account (or, for an operator that exists, a new link) and prints the one-time
//     link that sets its password, built from APP_URL, valid for 24 hours;
//   npm run operator:remove -- --email ops@example.com
//     removes the account; its sessions end with it.
// Both are written to the audit log as done by the command line. The database is migrated first.
import { parseArgs } from "node:util";
import { db, migrateToLatest } from "../db";
import { AppError } from "../app/services/platform/errors.server";
import { apiT } from "../app/services/platform/i18n.server";
import { createOperator, OPERATOR_LINK_HOURS, removeOperator } from "../app/services/operator/operators.server";

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: { email: { type: "string" }, name: { type: "string" } },
  strict: true,
});

function usage(): never {
  console.error(
    "usage: npm run operator:create -- --email <e-mail> --name <nome>\n       npm run operator:remove -- --email <e-mail>",
  );
  process.exit(2);
}

try {
  await migrateToLatest();
  if (command === "create") {
    if (!values.email || !values.name) usage();
    const { user, link, created } = await createOperator({ email: values.email, name: values.name });
    console.info(created ? `Operator created: ${user.full_name} <${user.email}>` : `Operator exists: ${user.email}`);
    console.info(`Link to set the password (once, within ${OPERATOR_LINK_HOURS} h):\n  ${link}`);
  } else if (command === "remove") {
    if (!values.email) usage();
    const user = await removeOperator({ email: values.email });
    console.info(`Operator removed: ${user.full_name} <${user.email}>`);
  } else {
    usage();
  }
  await db.destroy();
  process.exit(0);
} catch (error) {
  if (error instanceof AppError) {
    const fields = Object.entries(error.fieldErrors ?? {}).map(([f, key]) => `  ${f}: ${apiT(key)}`);
    console.error([`operator:${command}: ${apiT(error.key)}`, ...fields].join("\n"));
  } else {
    console.error(error instanceof Error ? error.message : error);
  }
  process.exit(1);
}
