// Starts Debian's docker-registry (the CNCF distribution server) on a free loopback port with its own
// storage directory, and stops it. .ci/install-registry-tools installs it when missing.
import { ChildProcess, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

export const REGISTRY_BINARY = "docker-registry";

export function haveCommand(cmd: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
}

async function freePort(address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, address, () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface RegistryOptions {
  /** htpasswd file: the registry then requires Basic authentication */
  htpasswd?: string;
  /** read-only storage: every upload is refused */
  readonly?: boolean;
  /** loopback address to bind (default 127.0.0.1); 127.0.0.2 stands for a non-loopback name */
  address?: string;
}

export interface RunningRegistry {
  host: string;
  stop(): Promise<void>;
}

export async function startRegistry(opts: RegistryOptions = {}): Promise<RunningRegistry> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-registry-"));
  const port = await freePort(opts.address ?? "127.0.0.1");
  const host = `${opts.address ?? "127.0.0.1"}:${port}`;
  const config = [
    "version: 0.1",
    "log:",
    "  level: error",
    "storage:",
    "  filesystem:",
    `    rootdirectory: ${path.join(dir, "data")}`,
    ...(opts.readonly ? ["  maintenance:", "    readonly:", "      enabled: true"] : []),
    "http:",
    `  addr: ${host}`,
    ...(opts.htpasswd ? ["auth:", "  htpasswd:", "    realm: cachewarden-test", `    path: ${opts.htpasswd}`] : []),
  ].join("\n");
  const configFile = path.join(dir, "config.yml");
  fs.writeFileSync(configFile, config + "\n");
  const child: ChildProcess = spawn(REGISTRY_BINARY, ["serve", configFile], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited: ${stderr.trim().split("\n").pop()}`);
    try {
      const res = await fetch(`http://${host}/v2/`);
      if (res.status === 200 || res.status === 401) return { host, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`docker-registry did not start on ${host}: ${stderr.trim()}`);
}
