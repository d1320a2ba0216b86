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
  throw new Error("PostgreSQL is needed for these tests: install it (apt-get install postgresql)");
}

// initdb and postgres refuse to run as root: as root they run as the system user postgres.
const asRoot = process.getuid?.() === 0;
function postgresUser() {
  if (!asRoot) return {};
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout);
  return { uid: id("-u"), gid: id("-g") };
}

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
      "-D", data, "-p", String(port), "-k", dir,
      "-c", "listen_addresses=127.0.0.1",
      "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
      "-c", "max_connections=300",
    ];
    const server = spawn(join(bin, "postgres"), args, { stdio: ["ignore", "pipe", "pipe"], cwd: dir, ...user });
    child = server;
    server.stdout!.on("data", (d) => (log += d));
    server.stderr!.on("data", (d) => (log += d));
    // Ready once it accepts a connection (bounded: 30 s).
    for (let i = 0; i < 300; i++) {
      if (server.exitCode !== null) break;
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
    if (!server || server.exitCode !== null) return;
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGINT");
    await exited;
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
