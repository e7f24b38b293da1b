"""A small project for the cluster tests: two groups of five linked documents (authentication
and billing, one cross reference between them) and one document linked to nothing."""

from __future__ import annotations

from pathlib import Path

MODEL = """\
categories:
  - id: auth
    name: Authentication
    objects:
{auth_objects}
    morphisms:
{auth_morphisms}
  - id: billing
    name: Billing
    objects:
{billing_objects}
    morphisms:
{billing_morphisms}
  - id: misc
    name: Miscellany
    objects:
      - {{id: lonely, title: A lonely note, content: Nothing links here.}}
"""


def _objects(prefix: str, titles: list[str], related: dict[int, str] | None = None) -> str:
    lines = []
    for i, title in enumerate(titles):
        extra = f", metadata: {{related: [{related[i]}]}}" if related and i in related else ""
        lines.append(f"      - {{id: {prefix}-{i}, title: {title}, content: {title}.{extra}}}")
    return "\n".join(lines)


def _clique(prefix: str, n: int) -> str:
    return "\n".join(
        f"      - {{id: {prefix}-{i}-{j}, name: uses, source: {prefix}-{i}, target: {prefix}-{j}}}"
        for i in range(n)
        for j in range(i + 1, n)
    )


AUTH_TITLES = ["Login form", "Login lockout", "Session tokens", "Password reset", "Login audit"]
BILLING_TITLES = ["Invoice export", "Invoice numbers", "Payment retries", "Tax rates", "Refunds"]


def write_project(root: Path, *, model: str | None = None) -> Path:
    (root / ".catdoc").mkdir(parents=True)
    text = model or MODEL.format(
        auth_objects=_objects("auth", AUTH_TITLES, {0: "bill-0"}),
        auth_morphisms=_clique("auth", len(AUTH_TITLES)),
        billing_objects=_objects("bill", BILLING_TITLES),
        billing_morphisms=_clique("bill", len(BILLING_TITLES)),
    )
    (root / ".catdoc" / "category.yaml").write_text(text, encoding="utf-8")
    return root
