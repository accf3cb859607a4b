"""Pure rendering of answers (no Chainlit, no Neo4j): view model, chain line, markdown, graph and share-page HTML."""
