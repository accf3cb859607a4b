"""Citation finding: per-corpus grammars that turn words into Mentions with address keys."""
