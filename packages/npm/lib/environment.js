"use strict";
// Where the package keeps CatDoc's private Python environment, how a suitable Python is found,
// and what to tell the user when there is none. Shared by the setup step and the command shims.

const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");

const MINIMUM = [3, 11];
const PACKAGE_DIR = path.resolve(__dirname, "..");
const VENV_DIR = path.join(PACKAGE_DIR, "venv");
const MARKER = path.join(VENV_DIR, "catdoc-wheel.txt");
const SETUP_SCRIPT = path.join(PACKAGE_DIR, "lib", "setup.js");
const WINDOWS = process.platform === "win32";
// Newest first: the first one that is recent enough and can make a virtual environment wins.
const CANDIDATES = ["python3.14", "python3.13", "python3.12", "python3.11", "python3", "python"];
// Prints what the checks need: the version, the real interpreter, and whether `venv` works.
const PROBE = [
  "import json, sys",
  "try:",
  "    import ensurepip, venv",
  "    ok = True",
  "except ImportError:",
  "    ok = False",
  "print(json.dumps({'version': list(sys.version_info[:3]), 'executable': sys.executable,",
  "                  'venv': ok}))",
].join("\n");

/** The CatDoc wheel shipped inside this package (`catdoc-<version>-py3-none-any.whl`), or null. */
function shippedWheel() {
  const wheels = fs.readdirSync(PACKAGE_DIR).filter((n) => /^catdoc-.+\.whl$/.test(n));
  return wheels.length === 1 ? path.join(PACKAGE_DIR, wheels[0]) : null;
}

/** The path of a console script (`catdoc`, `catdoc-mcp`) inside the private environment. */
function venvCommand(name) {
  return WINDOWS
    ? path.join(VENV_DIR, "Scripts", `${name}.exe`)
    : path.join(VENV_DIR, "bin", name);
}

/** The private environment's own interpreter. */
function venvPython() {
  return venvCommand("python");
}

/** True when the environment holds the shipped wheel, installed completely. */
function isReady(wheel) {
  if (wheel === null || !fs.existsSync(MARKER)) return false;
  return fs.readFileSync(MARKER, "utf8").trim() === path.basename(wheel);
}

/** Checks one interpreter: {python, version} when it is usable, else {python, problem}. */
function probe(python) {
  const run = spawnSync(python, ["-c", PROBE], { encoding: "utf8", timeout: 30000 });
  if (run.error) {
    const missing = run.error.code === "ENOENT";
    return { python, problem: missing ? "not found" : run.error.message };
  }
  let info;
  try {
    info = JSON.parse(run.stdout.trim().split("\n").pop());
  } catch {
    const said = (run.stderr || "").trim().split("\n")[0] || "no output";
    return { python, problem: `does not run (${said})` };
  }
  const version = info.version.join(".");
  const [major, minor] = info.version;
  if (major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1])) {
    return { python, problem: `is Python ${version}, older than ${MINIMUM.join(".")}` };
  }
  if (!info.venv) {
    const hint = `on Debian/Ubuntu: apt install python${major}.${minor}-venv`;
    return { python, problem: `is Python ${version} without the venv module (${hint})` };
  }
  return { python: info.executable || python, version };
}

/**
 * The Python to build the environment with: CATDOC_PYTHON when it is set (and only it, so the
 * user's choice is never silently replaced), else the first usable one on PATH.
 * Returns {python, version} or {tried: [{python, problem}]}.
 */
function findPython(env = process.env) {
  const chosen = env.CATDOC_PYTHON;
  const candidates = chosen ? [chosen] : CANDIDATES;
  const tried = [];
  for (const candidate of candidates) {
    const result = probe(candidate);
    if (!result.problem) return result;
    const label = chosen ? `CATDOC_PYTHON=${candidate}` : candidate;
    tried.push({ python: label, problem: result.problem });
  }
  return { tried };
}

/** The command that (re)builds the environment, as the user should type it. */
function setupCommand() {
  return `node "${SETUP_SCRIPT}"`;
}

/** What to say when the package carries no wheel (it was packed without the release script). */
function noWheelMessage() {
  return (
    `no CatDoc wheel (catdoc-*.whl) in ${PACKAGE_DIR}: ` +
    "this copy of the package was not built by scripts/release.py."
  );
}

/** What to say when no usable Python was found: what was tried and the exact fix. */
function noPythonMessage(tried) {
  const lines = tried.map((t) => `  ${t.python}: ${t.problem}`);
  const example = WINDOWS
    ? "set CATDOC_PYTHON=C:\\path\\to\\python.exe && "
    : "CATDOC_PYTHON=/path/to/python3.12 ";
  return [
    `CatDoc needs Python ${MINIMUM.join(".")} or newer, and none was found:`,
    ...lines,
    `Install Python ${MINIMUM.join(".")}+ (https://www.python.org/downloads/)` +
      " or point CATDOC_PYTHON at one, then run:",
    `  ${example}${setupCommand()}`,
  ].join("\n");
}

module.exports = {
  MARKER,
  PACKAGE_DIR,
  VENV_DIR,
  findPython,
  isReady,
  noPythonMessage,
  noWheelMessage,
  setupCommand,
  shippedWheel,
  venvCommand,
  venvPython,
};
