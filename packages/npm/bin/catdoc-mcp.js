#!/usr/bin/env node
// `catdoc-mcp` (and `mcp-server`, which `npx @catdoc/mcp-server` runs): CatDoc's MCP server on stdio.
require("../lib/run.js").run("catdoc-mcp");
