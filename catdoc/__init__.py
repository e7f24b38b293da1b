"""CatDoc: the documents of a repository as a checked category-theory graph.

    >>> import catdoc
    >>> doc = catdoc.CatDoc("examples/traceability")
    >>> doc.validate().is_valid
    True

Names load on first use, so `import catdoc` (and the `catdoc` command) start fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "CatDoc": "catdoc.service",
    "CatDocError": "catdoc.errors",
    "Project": "catdoc.project",
    "find_root": "catdoc.project_files",
    "load_project": "catdoc.project",
    "Category": "catdoc.model",
    "Config": "catdoc.model",
    "DocObject": "catdoc.model",
    "Functor": "catdoc.model",
    "ModelFile": "catdoc.model",
    "Morphism": "catdoc.model",
    "NaturalTransformation": "catdoc.model",
}

if TYPE_CHECKING:
    from catdoc.errors import CatDocError
    from catdoc.model import (
        Category,
        Config,
        DocObject,
        Functor,
        ModelFile,
        Morphism,
        NaturalTransformation,
    )
    from catdoc.project import Project, load_project
    from catdoc.project_files import find_root
    from catdoc.service import CatDoc


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'catdoc' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "CatDoc",
    "CatDocError",
    "Category",
    "Config",
    "DocObject",
    "Functor",
    "ModelFile",
    "Morphism",
    "NaturalTransformation",
    "Project",
    "__version__",
    "find_root",
    "load_project",
]
