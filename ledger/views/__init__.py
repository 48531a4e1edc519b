"""Thin views by area: they parse input, call a service or a selector, and render."""
