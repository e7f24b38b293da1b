"use strict";
// Builds CatDoc's private Python environment inside the installed package: a virtual
// environment (`venv/`) with the CatDoc wheel that ships in the npm tarball, installed by pip.
// Runs as npm's postinstall step, on the first command when that step did not run (npm 12 runs
// install scripts only when allowed; `npx` may skip them), and by hand (`node lib/setup.js`)
// to redo it. As postinstall it never fails the npm install: it says what is wrong, and the
// commands say it again, with the fix, when they are run.

const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const env = require("./environment.js");

const LOCK = `${env.VENV_DIR}.lock`;
const STALE_LOCK_MS = 15 * 60 * 1000;

function say(message) {
  process.stderr.write(`@catdoc/mcp-server: ${message}\n`);
}

/** npm shows an install script's output only when the script fails: tell the terminal too. */
function tellTerminal(message) {
  if (process.stderr.isTTY || process.platform === "win32") return;
  try {
    fs.appendFileSync("/dev/tty", `@catdoc/mcp-server: ${message}\n`);
  } catch {
    // no terminal (CI, a service): the commands repeat the message when run
  }
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs a step with its output on stderr (stdout may be an MCP client's protocol stream). */
function step(command, args) {
  const result = spawnSync(command, args, { stdio: ["ignore", 2, 2] });
  if (result.error) return `${command}: ${result.error.message}`;
  if (result.status === 0) return null;
  return `\`${command} ${args.join(" ")}\` exited with ${result.status}`;
}

/** Takes the build lock, waiting while another process builds; false when it cannot be made. */
function lock() {
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      return true;
    } catch (error) {
      if (error.code !== "EEXIST") return false;
    }
    const age = Date.now() - fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs;
    if (age > STALE_LOCK_MS) fs.rmSync(LOCK, { recursive: true, force: true });
    else sleep(500);
  }
}

function build(wheel, python) {
  fs.rmSync(env.VENV_DIR, { recursive: true, force: true });
  const pip = ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet"];
  const failed =
    step(python, ["-m", "venv", env.VENV_DIR]) || step(env.venvPython(), [...pip, wheel]);
  if (failed) {
    const causes = "network access to the Python package index, disk space, permissions";
    return `${failed}.\nFix the cause above (${causes}), then run:\n  ${env.setupCommand()}`;
  }
  fs.writeFileSync(env.MARKER, `${path.basename(wheel)}\n`);
  return null;
}

/** Builds the environment unless it is ready (or `force`); null on success, else what is wrong. */
function setup({ force = false } = {}) {
  const wheel = env.shippedWheel();
  if (wheel === null) return env.noWheelMessage();
  if (!force && env.isReady(wheel)) return null;
  const found = env.findPython();
  if (!found.python) return env.noPythonMessage(found.tried);
  if (!lock()) {
    const fix = `run the setup as its owner:\n  ${env.setupCommand()}`;
    return `cannot write in ${env.PACKAGE_DIR}: ${fix}`;
  }
  try {
    if (!force && env.isReady(wheel)) return null; // another process built it meanwhile
    const using = `${found.python} (Python ${found.version})`;
    say(`building CatDoc's Python environment in ${env.VENV_DIR} with ${using}; this happens once`);
    return build(wheel, found.python);
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const postinstall = process.argv.includes("--postinstall");
  const problem = setup({ force: !postinstall });
  if (problem === null) {
    say("CatDoc is ready: `catdoc --help`, `catdoc-mcp --project DIR`.");
  } else {
    say(problem);
    if (postinstall) {
      const later =
        "the package is installed; `catdoc` and `catdoc-mcp` say this again until it is fixed.";
      say(later);
      tellTerminal(`${problem}\n${later}`);
    }
    process.exitCode = postinstall ? 0 : 1;
  }
}

module.exports = { setup };
