"""Write-side operations on the reference data, one module per concern: `scoring`, `catalog`,
`impact` (previews), `prices` (refresh and freshness), and `versioned` (what the two versioned
kinds share). Import from the concern's module."""
