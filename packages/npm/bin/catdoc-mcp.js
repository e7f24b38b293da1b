#!/usr/bin/env node
// `catdoc-mcp`, and `mcp-server` (what `npx @catdoc/mcp-server` runs): the MCP server on stdio.
require("../lib/run.js").run("catdoc-mcp");
