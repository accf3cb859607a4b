"""Local services Citewalk runs for itself (a Neo4j server on loopback)."""
