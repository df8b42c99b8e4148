"""Charts: a result document or an impact preview in, SVG text out (pygal), one module per
concern:

- `svg`: the house style, every chart's options, the static SVG and its data URI
- `results`: what the charts and the report's tables read of a result (kinds, billing names,
  the option the cost summary used, an option's cost per run or per million tokens)
- `report`: the report's charts (memory, cost against utilisation, time against cost, serving)
- `impact`: an impact preview's histogram

Callers import the concern's module or its names (`from advisor.charts.report import ...`).
"""
