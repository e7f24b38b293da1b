"""Benchmarks of CatDoc against the budgets of DESIGN.md §5 (see README.md here)."""
