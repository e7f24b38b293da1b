"use strict";
// The command shims: run a CatDoc console script from the private environment with the same
// arguments, standard streams (the MCP server speaks over stdin/stdout), exit status and signals.

const { spawn } = require("node:child_process");
const env = require("./environment.js");
const { setup } = require("./setup.js");

const FORWARDED = ["SIGINT", "SIGTERM", ...(process.platform === "win32" ? [] : ["SIGHUP"])];

function run(name) {
  const problem = setup(); // nothing to do when the environment is ready
  if (problem !== null) {
    process.stderr.write(`${name}: ${problem}\n`);
    process.exit(1);
  }
  const command = env.venvCommand(name);
  // The handlers are in place before the child exists: a signal that came between the spawn
  // and them would end this process the default way and leave the child running, orphaned,
  // holding the caller's pipes open. A handler only runs once this function has returned.
  let child = null;
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  child = spawn(command, process.argv.slice(2), { stdio: "inherit" });
  child.on("error", (error) => {
    process.stderr.write(`${name}: cannot start ${command}: ${error.message}\n`);
    process.stderr.write(`Rebuild CatDoc's Python environment with:\n  ${env.setupCommand()}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    for (const s of FORWARDED) process.removeListener(s, forward);
    if (signal) process.kill(process.pid, signal); // end the way the child ended
    else process.exit(code ?? 1);
  });
}

module.exports = { run };
