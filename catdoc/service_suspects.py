"""The service's suspect links and reviews: which links need a review and why (with a diff of
each changed document since its review, when git has it), and re-stamping them after review
through the one write path."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catdoc import results as r
from catdoc.documents import read_document
from catdoc.errors import VALIDATION_ERROR, CatDocError
from catdoc.fingerprints import SPECIAL, fingerprints_for
from catdoc.paging import check_page
from catdoc.project import Project
from catdoc.project_files import resolve_inside
from catdoc.review_diff import GIT_TIMEOUT, reviewed_diff
from catdoc.reviews import REVIEWS_REL, read_reviews, reviews_path
from catdoc.service_base import ServiceBase
from catdoc.suspects import LinkStatus, link_statuses

if TYPE_CHECKING:
    from catdoc.edit import EditResult

DEFAULT_SUSPECTS = 100
MAX_DIFFS = 20
"""Changed documents per answer that get a diff from git (each costs two git processes)."""


class SuspectOperations(ServiceBase):
    """Suspect links and their reviews (mixed into `CatDoc`)."""

    def suspects(
        self,
        category: str | None = None,
        *,
        limit: int = DEFAULT_SUSPECTS,
        offset: int = 0,
        diffs: bool = True,
    ) -> r.SuspectReport:
        """The links that need a review (documents changed since the stamp first, then links
        never reviewed), paged; `category` keeps those touching it. Each changed document
        comes with a diff since its review when git has the reviewed version (`diffs`)."""
        check_page(limit, offset)
        project = self.project()
        cat_id = self.category(category).id if category is not None else None
        book = read_reviews(project.root)
        if book is None:
            return r.SuspectReport(
                enabled=False,
                limit=limit,
                offset=offset,
                message=f"Reviews are off: {REVIEWS_REL} does not exist. `catdoc review --all` "
                "stamps every link as reviewed and turns them on.",
            )
        checked, statuses = link_statuses(
            project, book, fingerprints_for(project.root), category=cat_id
        )
        statuses.sort(key=lambda s: s.state != "changed")
        changed = sum(s.state == "changed" for s in statuses)
        budget = _Diffs(project.root, MAX_DIFFS if diffs else 0)
        page = [
            self._suspect(project, status, budget) for status in statuses[offset : offset + limit]
        ]
        where = f" touching {cat_id}" if cat_id else ""
        message = (
            f"All {checked:,} link(s){where} are reviewed and current."
            if not statuses
            else f"{len(statuses):,} of {checked:,} link(s){where} need a review: "
            f"{changed:,} changed since their review, {len(statuses) - changed:,} never "
            "reviewed. Read them, then `catdoc review KEY…`."
        )
        return r.SuspectReport(
            enabled=True,
            links_checked=checked,
            changed_total=changed,
            unreviewed_total=len(statuses) - changed,
            total=len(statuses),
            offset=offset,
            limit=limit,
            suspects=page,
            message=message,
        )

    def _suspect(self, project: Project, status: LinkStatus, budget: _Diffs) -> r.SuspectLink:
        ref = status.ref
        entity = (
            project.morphism_by_id.get(ref.owner)
            if ref.kind == "morphism"
            else project.nat_by_id.get(ref.owner)
            if ref.kind == "component"
            else project.functor_by_id.get(ref.owner)
        )
        documents = []
        for change in status.changed:
            obj = project.object_by_id.get(change.object_id)
            document = r.ChangedDocument(
                object_id=change.object_id,
                side=change.side,
                path=obj.path if obj else None,
                reviewed_fingerprint=change.stamped,
                current_fingerprint=change.current,
            )
            if obj is not None:
                document = budget.attach(document)
            documents.append(document)
        return r.SuspectLink(
            key=ref.key,
            kind=ref.kind,
            owner=ref.owner,
            item=ref.item,
            status=status.state,
            changed_ends=status.sides,
            reason=status.reason(),
            source=list(status.ends[0]),
            target=list(status.ends[1]),
            reviewed_at=status.stamp.at if status.stamp else None,
            reviewed_by=status.stamp.by if status.stamp else None,
            location=project.locate(entity) if entity is not None else "",
            documents=documents,
        )

    def review(
        self,
        ids: Sequence[str] | None = None,
        *,
        all: bool = False,
        by: str | None = None,
        expected_version: str | None = None,
    ) -> EditResult:
        """Stamp links as reviewed: those `ids` name (link keys, or morphism, functor, natural
        transformation or object ids), or with `all` every link (stamps of links gone are
        dropped). `by` defaults to git's `user.name`. The first review creates
        `.catdoc/reviews.yaml`, which turns reviews on."""
        if bool(ids) == all:
            raise CatDocError(
                VALIDATION_ERROR,
                "Name the links to review, or ask for all of them — exactly one of the two.",
                "`catdoc review morphism:ID …` or `catdoc review --all`.",
            )
        reviewer = by if by is not None else default_reviewer(self.project().root)
        subject = ids[0] if ids and len(ids) == 1 else None
        return self._edit(
            lambda e: e.review(list(ids or ()), everything=all, by=reviewer),
            subject=subject,
            action="updated",
            expected_version=expected_version,
        )

    def refresh_review_state(self) -> None:
        """Forget memoised validation reports when a stamp or a linked document changed since
        they were made (their SUSPECT_LINK findings would be stale): a `stat` per document."""
        project = self.project()
        path = reviews_path(project.root)
        try:
            st = os.stat(path)
            state: Any = (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            state = None
        if state is not None:
            prints = fingerprints_for(project.root)
            for obj in project.object_by_id.values():
                if obj.path:
                    prints.of_path(obj.path)
            state = (state, prints.generation)
        with self._lock:
            if self._derived.get("reviews:state", False) != state:
                stale = [k for k in self._derived if k.startswith(("validate:", "suspects:"))]
                for key in stale:
                    del self._derived[key]
                self._derived["reviews:state"] = state

    def suspect_marks(self, object_id: str) -> dict[str, str]:
        """Link key → why it needs a review, for the links with `object_id` at an end (empty
        while reviews are off): what a face marks next to an object's links. The check of the
        whole project is kept until a stamp, a linked document or the model changes."""
        self.refresh_review_state()
        statuses = self.derived(
            "suspects:all",
            lambda p: link_statuses(p, read_reviews(p.root), fingerprints_for(p.root))[1],
        )
        return {
            s.ref.key: s.reason()
            for s in statuses
            if object_id in s.ends[0] or object_id in s.ends[1]
        }


class _Diffs:
    """Diffs for one answer: each (document, reviewed fingerprint) looked up in git once, at
    most `left` of them (a document changed at many links is diffed once)."""

    def __init__(self, root: Path, left: int) -> None:
        self.root = root
        self.left = left
        self._found: dict[tuple[str, str], dict[str, Any]] = {}

    def attach(self, doc: r.ChangedDocument) -> r.ChangedDocument:
        stamped, current = doc.reviewed_fingerprint, doc.current_fingerprint
        if stamped is None or current is None or stamped in SPECIAL or current in SPECIAL:
            return doc
        if doc.path is None:
            return doc.model_copy(update={"diff_note": "inline content has no file history."})
        key = (doc.path, stamped)
        if key not in self._found:
            if self.left <= 0:
                return doc
            self.left -= 1
            self._found[key] = self._look_up(doc.path, stamped)
        return doc.model_copy(update=self._found[key])

    def _look_up(self, path: str, stamped: str) -> dict[str, Any]:
        try:
            text = read_document(resolve_inside(self.root, path), path)
        except CatDocError as exc:
            return {"diff_note": exc.message}
        found = reviewed_diff(self.root, path, stamped, text)
        return {
            "diff": found.lines,
            "diff_revision": found.revision,
            "diff_note": found.note,
            "diff_truncated": found.truncated,
        }


def default_reviewer(root: Path) -> str | None:
    """git's `user.name` for the project, if git and the setting exist."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "config", "user.name"],
            capture_output=True,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    name = done.stdout.decode("utf-8", "replace").strip()
    return name[:200] or None


__all__ = ["DEFAULT_SUSPECTS", "MAX_DIFFS", "SuspectOperations", "default_reviewer"]
