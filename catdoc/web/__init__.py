"""The browser dashboard: server-rendered pages over one `CatDoc` service, live over SSE.

`catdoc.web.activity` is light (the MCP server imports it for its tool-call log); the web stack
(Starlette, uvicorn, Jinja2) loads only in `catdoc.web.app` and `catdoc.web.server`.
"""
