"""Reading text: documents, frontmatter, YAML, Markdown blocks, mentions, and the patterns paths are matched with (gitignore lines and globs). Imports nothing that checks files."""
