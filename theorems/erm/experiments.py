"""Placeholder (filled in below)."""
FIGURES = {}
