"""The answers document: its vocabulary, JSON Schema, validation, parsing and older versions."""
