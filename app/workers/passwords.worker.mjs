// bcrypt off the event loop: app/services/accounts/passwords.server.ts sends hashing and checks here.
// Plain JavaScript, read from disk at run time (the server bundle does not carry it).
import { setPriority } from "node:os";
import bcrypt from "bcryptjs";

// One notch below the threads serving requests (on Linux the nice value is per thread): when
// the machine is busy, pages and API calls go first and password checks wait a little longer.
try {
  setPriority(0, 5);
} catch {
  // Not allowed here (or not supported): run at normal priority.
}

/** @param {{ op: "hash", password: string, cost: number } | { op: "compare", password: string, hash: string }} task */
export default function run(task) {
  return task.op === "hash" ? bcrypt.hashSync(task.password, task.cost) : bcrypt.compareSync(task.password, task.hash);
}
