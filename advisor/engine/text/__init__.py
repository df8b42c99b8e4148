"""The engine's words: its bilingual messages, labels, lookups and the public clouds by name."""
