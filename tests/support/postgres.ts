// A throwaway PostgreSQL server for the tests and the benchmark: initdb in a temporary folder,
// a free port on 127.0.0.1, durability off (fsync) since the data dies with the run anyway.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./net";

/** The folder with initdb and postgres: pg_config's, else the newest Debian one, else PATH. */
function binDir(): string {
  const fromConfig = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  if (fromConfig.status === 0 && existsSync(join(fromConfig.stdout.trim(), "initdb"))) return fromConfig.stdout.trim();
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, "bin/initdb")))
      .sort((x, y) => Number(y) - Number(x));
    if (versions.length > 0) return join(debian, versions[0], "bin");
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  if (which.status === 0) return join(which.stdout.trim(), "..");
  throw new Error("PostgreSQL is needed for the tests: apt-get install postgresql");
}

// initdb and postgres refuse to run as root: as root they run as the system user postgres.
const asRoot = process.getuid?.() === 0;
function postgresUser() {
  if (!asRoot) return {};
  const id = (flag: string) => {
    const out = spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
    if (out.status !== 0) throw new Error("As root, the tests run PostgreSQL as the system user postgres: create it");
    return Number(out.stdout);
  };
  return { uid: id("-u"), gid: id("-g") };
}

// The server must not outlive a test run killed with SIGKILL (no 'exit' handler runs then): on
// Linux, setpriv asks the kernel to send it SIGINT (fast shutdown) when its parent dies.
const deathSignal = spawnSync("setpriv", ["--help"], { encoding: "utf8" }).stdout?.includes("--pdeathsig")
  ? ["setpriv", "--pdeathsig", "INT", "--"]
  : undefined;

// A process killed by a signal has exitCode null and signalCode set.
const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

export type Postgres = Awaited<ReturnType<typeof startPostgres>>;

export async function startPostgres() {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), "freela-pg-"));
  const user = postgresUser();
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid);
  const data = join(dir, "data");
  // A UTF-8 LC_CTYPE: with C, the full-text search would not know accented letters are letters.
  const init = spawnSync(
    join(bin, "initdb"),
    ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8"],
    { encoding: "utf8", cwd: dir, ...user },
  );
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}${init.stderr}`);

  const port = await freePort();
  const url = (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let child: ChildProcess | undefined;
  let log = "";
  const killOnExit = () => child?.kill("SIGKILL");
  process.on("exit", killOnExit);

  async function start() {
    const args = [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=300",
    ];
    const command = [...(deathSignal ?? []), join(bin, "postgres"), ...args];
    // Not detached: a Ctrl-C in the terminal reaches the server too.
    const server = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "pipe"], cwd: dir, ...user });
    child = server;
    server.stdout!.on("data", (d) => (log += d));
    server.stderr!.on("data", (d) => (log += d));
    // Ready once it accepts a connection (bounded: 30 s).
    for (let i = 0; i < 300; i++) {
      if (exited(server)) break;
      const client = new pg.Client(url());
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`PostgreSQL did not start:\n${log}`);
  }

  /** Fast shutdown (SIGINT: sessions are cut, nothing waits); the data folder stays. */
  async function stop() {
    const server = child;
    if (!server || exited(server)) return;
    const exit = new Promise((r) => server.once("exit", r));
    server.kill("SIGINT");
    await exit;
  }

  async function admin(text: string) {
    const client = new pg.Client(url());
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  }

  await start();
  return {
    port,
    url,
    /** Server messages so far, for diagnosis. */
    log: () => log,
    createDatabase: (name: string, template?: string) =>
      admin(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`),
    dropDatabase: (name: string) => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
    /** Stops the server and removes its folder. */
    async destroy() {
      await stop();
      process.off("exit", killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
