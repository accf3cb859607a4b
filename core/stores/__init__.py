"""Connections to the real stores: Neo4j (graph), Chroma (vectors), the lexical index on disk."""
