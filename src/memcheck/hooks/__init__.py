"""The run() behind each command and pre-commit hook."""
