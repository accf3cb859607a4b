"""Regulation files → legal units, typed citation edges, vectors and a lexical index."""
