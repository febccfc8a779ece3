// Fails unless every Solidity line is covered: reads the lcov report `hardhat test --coverage` writes.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./lib/run.ts";

const report = path.join(ROOT, "coverage/lcov.info");
const files = fs
  .readFileSync(report, "utf8")
  .split("end_of_record")
  .map((record) => ({
    file: record.match(/^SF:(.*)$/m)?.[1],
    found: Number(record.match(/^LF:(\d+)$/m)?.[1] ?? 0),
    hit: Number(record.match(/^LH:(\d+)$/m)?.[1] ?? 0),
  }))
  .filter((entry) => entry.file);

const short = files.filter((entry) => entry.hit < entry.found);
if (files.length === 0) {
  console.error(`No coverage data in ${report}`);
  process.exit(1);
}
if (short.length > 0) {
  for (const entry of short) console.error(`${entry.file}: ${entry.hit}/${entry.found} lines covered`);
  console.error("Contract line coverage must stay at 100%.");
  process.exit(1);
}
console.log(`Contract line coverage: 100% of ${files.reduce((sum, entry) => sum + entry.found, 0)} lines.`);
