"""The engine's speed figures against independent models and published runs (`python -m
advisor.calibration` prints the tables and writes docs/calibration.md). Nothing in the product
imports this package; it reads the engine the way a report does."""
