"""Scoring and ranking: hard constraints, soft scores, tiers and dominance."""
