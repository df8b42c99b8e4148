"""zh-Hant number and date formats: Django's own zh_Hant module groups digits
in fours with no separator ("12000", "1,2000" when forced); Taiwan and Hong Kong write money and
counts in thousands with commas ("12,000"), as the site's English pages and its figures do.
The dates are Django's zh_Hant ones."""

from __future__ import annotations

DATE_FORMAT = "Y年n月j日"  # 2026年12月5日
TIME_FORMAT = "H:i"  # 17:10
DATETIME_FORMAT = "Y年n月j日 H:i"
YEAR_MONTH_FORMAT = "Y年n月"
MONTH_DAY_FORMAT = "n月j日"
SHORT_DATE_FORMAT = "Y年n月j日"
SHORT_DATETIME_FORMAT = "Y年n月j日 H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%Y/%m/%d"]
TIME_INPUT_FORMATS = ["%H:%M", "%H:%M:%S", "%H:%M:%S.%f"]
DATETIME_INPUT_FORMATS = [
    "%Y-%m-%d %H:%M",
    "%Y/%m/%d %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y/%m/%d %H:%M:%S",
    "%Y-%m-%d %H:%M:%S.%f",
]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
