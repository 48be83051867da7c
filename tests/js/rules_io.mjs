// File access for the Node side of the rules tests: paths relative to the repository root.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const nodeIo = {
  readJson: (rel) => JSON.parse(fs.readFileSync(path.join(ROOT, rel), "utf8")),
  listDir: (rel) => fs.readdirSync(path.join(ROOT, rel)),
};

export function vectorFiles() {
  const dir = path.join(ROOT, "shared_rules", "vectors");
  return fs.readdirSync(dir).filter((n) => n.endsWith(".json")).sort()
    .map((n) => [n, JSON.parse(fs.readFileSync(path.join(dir, n), "utf8"))])
    .filter(([, doc]) => doc.kind !== "calendar"); // the legal calendar's vectors have their own runner
}
