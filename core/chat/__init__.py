"""Chainlit-facing glue for app.py: each module wires one concern of the chat to core/ (rendering lives in core/render)."""
