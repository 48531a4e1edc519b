"""Helpers of the web layer: the render cache, django-tables2 speed-ups, JSON intake, refusal
texts, permissions, charts, QR codes and the context processor."""
