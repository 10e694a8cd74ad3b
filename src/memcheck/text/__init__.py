"""Reading text: documents, frontmatter, YAML, Markdown blocks, mentions and globs. Imports nothing that checks files."""
