"""The service's write operations: each is one `catdoc.edit` transaction, answered as an
`EditResult`. Every face (MCP tools, CLI, TUI, importer) changes the model through these."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from catdoc.model import PathSpec
from catdoc.service_base import ServiceBase

if TYPE_CHECKING:
    from catdoc.edit import EditResult, EntityKind, ModelEdit


class EditOperations(ServiceBase):
    """The write operations, each one transaction (mixed into `CatDoc`)."""

    def version(self) -> str:
        """The model's current version (a hash of its files), for `expected_version`."""
        return self.project().version

    def _edit(
        self,
        apply: Callable[[ModelEdit], Any],
        *,
        subject: str | None,
        action: str,
        expected_version: str | None,
    ) -> EditResult:
        """Run one transaction; `apply` may return the subject's id when it chose it. The write
        path (and ruamel.yaml with it) is imported by the first edit: a read-only command never
        needs it."""
        from catdoc.edit import edit_model, edit_result

        outcome = edit_model(self.project(), apply, expected_version=expected_version)
        self._adopt(outcome.project)
        chosen = outcome.value if isinstance(outcome.value, str) else subject
        return edit_result(outcome, chosen, action)

    # ------------------------------------------------------------------ objects and morphisms
    def upsert_object(
        self,
        category: str,
        object_id: str,
        fields: Mapping[str, Any] | None = None,
        *,
        content: str | None = None,
        expected_version: str | None = None,
        expected_content_version: str | None = None,
    ) -> EditResult:
        """Create or update an object (None removes a field; metadata merges key by key).
        `expected_content_version` (its `contentVersion` as read) guards a new `content`
        against a change to the document's text meanwhile, which the model's version does not
        see."""
        return self._edit(
            lambda e: e.upsert_object(
                category,
                object_id,
                fields or {},
                content=content,
                expected_content_version=expected_content_version,
            ),
            subject=object_id,
            action="updated",
            expected_version=expected_version,
        )

    def remove_object(
        self, object_id: str, *, cascade: bool = False, expected_version: str | None = None
    ) -> EditResult:
        return self._edit(
            lambda e: e.remove_object(object_id, cascade=cascade),
            subject=object_id,
            action="removed",
            expected_version=expected_version,
        )

    def rename(
        self,
        old: str,
        new: str,
        *,
        kind: EntityKind | None = None,
        expected_version: str | None = None,
    ) -> EditResult:
        """Rename an object, morphism, category, functor or natural transformation (of `kind`,
        when two kinds share the id) and every reference to it in the model."""
        return self._edit(
            lambda e: e.rename(old, new, kind) and None,
            subject=new,
            action="renamed",
            expected_version=expected_version,
        )

    def add_morphism(
        self,
        category: str,
        source: str,
        target: str,
        *,
        name: str | None = None,
        morphism_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        expected_version: str | None = None,
    ) -> EditResult:
        return self._edit(
            lambda e: e.add_morphism(
                category, source, target, name=name, morphism_id=morphism_id, metadata=metadata
            ),
            subject=morphism_id,
            action="created",
            expected_version=expected_version,
        )

    def remove_morphism(
        self, morphism_id: str, *, cascade: bool = False, expected_version: str | None = None
    ) -> EditResult:
        return self._edit(
            lambda e: e.remove_morphism(morphism_id, cascade=cascade),
            subject=morphism_id,
            action="removed",
            expected_version=expected_version,
        )

    # ------------------------------------------------------------------ mappings
    def set_mapping(
        self,
        functor_id: str,
        *,
        objects: Mapping[str, str | None] | None = None,
        morphisms: Mapping[str, PathSpec | None] | None = None,
        expected_version: str | None = None,
    ) -> EditResult:
        """Set (None: remove) entries of a functor's object and morphism mappings."""
        return self._edit(
            lambda e: e.set_mapping(functor_id, objects, morphisms),
            subject=functor_id,
            action="updated",
            expected_version=expected_version,
        )

    def set_components(
        self,
        nat_id: str,
        components: Mapping[str, PathSpec | None],
        *,
        expected_version: str | None = None,
    ) -> EditResult:
        """Set (None: remove) components of a natural transformation."""
        return self._edit(
            lambda e: e.set_components(nat_id, components),
            subject=nat_id,
            action="updated",
            expected_version=expected_version,
        )

    # ------------------------------------------------------------------ headers
    def upsert_category(
        self,
        category_id: str,
        fields: Mapping[str, Any] | None = None,
        *,
        file: str | None = None,
        expected_version: str | None = None,
    ) -> EditResult:
        return self._edit(
            lambda e: e.upsert_category(category_id, fields or {}, file=file),
            subject=category_id,
            action="updated",
            expected_version=expected_version,
        )

    def upsert_functor(
        self,
        functor_id: str,
        *,
        name: str | None = None,
        source_category: str | None = None,
        target_category: str | None = None,
        file: str | None = None,
        expected_version: str | None = None,
    ) -> EditResult:
        return self._edit(
            lambda e: e.upsert_functor(
                functor_id,
                name=name,
                source_category=source_category,
                target_category=target_category,
                file=file,
            ),
            subject=functor_id,
            action="updated",
            expected_version=expected_version,
        )

    def upsert_natural_transformation(
        self,
        nat_id: str,
        *,
        name: str | None = None,
        source_functor: str | None = None,
        target_functor: str | None = None,
        file: str | None = None,
        expected_version: str | None = None,
    ) -> EditResult:
        return self._edit(
            lambda e: e.upsert_natural_transformation(
                nat_id,
                name=name,
                source_functor=source_functor,
                target_functor=target_functor,
                file=file,
            ),
            subject=nat_id,
            action="updated",
            expected_version=expected_version,
        )

    def remove_entity(
        self,
        ident: str,
        *,
        cascade: bool = False,
        kind: EntityKind | None = None,
        expected_version: str | None = None,
    ) -> EditResult:
        """Remove whatever `ident` names (object, morphism, category, functor, transformation;
        of `kind`, when two kinds share the id)."""

        def remove(e: ModelEdit) -> None:
            e.remove(ident, cascade=cascade, kind=kind)

        return self._edit(
            remove, subject=ident, action="removed", expected_version=expected_version
        )
