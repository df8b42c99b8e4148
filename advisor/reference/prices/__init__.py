"""Public cloud price lists: fetch, validate and turn into new figures for catalog price rows.

`base` holds the protocol, the transports and the checks; one module per provider (`azure`,
`aws`, `gcp`) implements `base.PriceSource`; `registry` names them.
"""
