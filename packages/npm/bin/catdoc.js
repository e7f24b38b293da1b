#!/usr/bin/env node
// `catdoc`: CatDoc's command line, run from the package's private Python environment.
require("../lib/run.js").run("catdoc");
