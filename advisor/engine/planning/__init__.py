"""Options: the cards, counts, servers and modes that run each workload (tokens or its own unit),
and what to relax."""
