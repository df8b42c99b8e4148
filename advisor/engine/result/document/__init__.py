"""The result document's types (schema 2, engine 2.x) and the one place older documents are
brought up to it.

The document is stored as JSON (Assessment.result, Report.result) and served by the API, so
its types are TypedDicts over plain dicts: typing it changes no byte of it. Readers (reporting,
charts, the API, the CLI) take a `ResultDocument` and index the keys the types guarantee;
`normalise` turns a stored schema-1 document into one, once, where it is read.

- `result`: `ResultDocument` and `normalise`
- `recommendation`: the versions, and the recommendation with its reasons and changes
- `workload`: a workload's decision, pilot and dead end
- `option`: an option with its prices, stack, availability and China network
- `totals`: the sizing, the servers and the cost

Readers import the names below.
"""

from advisor.engine.result.document.option import Option, Price
from advisor.engine.result.document.recommendation import Change, Excluded, Reason
from advisor.engine.result.document.result import ResultDocument, normalise
from advisor.engine.result.document.totals import Cost, InferenceSizing, PriceUsed, TrainingSizing
from advisor.engine.result.document.workload import Workload

__all__ = [
    "Change",
    "Cost",
    "Excluded",
    "InferenceSizing",
    "Option",
    "Price",
    "PriceUsed",
    "Reason",
    "ResultDocument",
    "TrainingSizing",
    "Workload",
    "normalise",
]
